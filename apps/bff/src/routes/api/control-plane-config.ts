import { CONTROL_PLANE_POOL_ID, planEditControlPlaneConfig } from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors';
import {
  ClusterParams,
  DryRunQuery,
  errorResponses,
  MutationResultSchema,
  PlanSchema,
} from '../../http/schemas';
import { servedBody } from '../../requests/served-fields';
import { controlPlanePatch, mayAttempt } from './access';
import { replyWith } from './mutation-reply';

/**
 * O-EDIT-CP-CONFIG (issue 12): the control plane's kubeadm config, as a rolling change of the
 * control plane. `GET` gives the config the editor starts from, with the resourceVersion to send
 * back, in the console's model (the hub: what the request's body speaks), whatever version the
 * cluster serves — the raw-object route gives the served version, for the YAML view (issue 23:
 * v1beta2's `kubeletExtraArgs` is a list, the model's a map).
 */
const controlPlaneConfig: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const stores = app.cache.stores;
  const mutationLimit = { max: app.config.mutationRatePerMinute, timeWindow: 60_000 };
  // Issue 11: the parts a request writes are judged by the schemas the cluster serves.
  const editControlPlaneConfigBody = servedBody(
    () => app.servedFields,
    'EditControlPlaneConfigRequestSchema',
  );

  const kcpOf = (namespace: string, cluster: string) => {
    const view = app.views.current(namespace, cluster).pool(CONTROL_PLANE_POOL_ID);
    const kcp = view ? stores.KubeadmControlPlane.get(namespace, view.name) : undefined;
    if (!kcp) throw notFound(`control plane of ${namespace}/${cluster} not found`, 'cluster');
    return kcp;
  };

  app.get(
    '/clusters/:namespace/:cluster/control-plane/kubeadm-config',
    {
      schema: {
        tags: ['nodepools'],
        summary:
          "The control plane's kubeadm config as O-EDIT-CP-CONFIG's body speaks it, with the resourceVersion to send back",
        params: ClusterParams,
        response: {
          200: z.object({
            name: z.string(),
            resourceVersion: z.string(),
            version: z.string().optional(),
            kubeadmConfigSpec: z.looseObject({}),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { namespace, cluster } = request.params;
      const principal = await app.principalOf(request);
      const kcp = kcpOf(namespace, cluster);
      const name = kcp.metadata.name ?? '';
      await app.authorize(principal, [
        { verb: 'get', kind: 'KubeadmControlPlane', namespace, name },
      ]);
      return {
        name,
        resourceVersion: kcp.metadata.resourceVersion ?? '',
        ...(kcp.spec?.version ? { version: kcp.spec.version } : {}),
        kubeadmConfigSpec: kcp.spec?.kubeadmConfigSpec ?? {},
      };
    },
  );

  app.post(
    '/clusters/:namespace/:cluster/control-plane/kubeadm-config',
    {
      config: { rateLimit: mutationLimit },
      preValidation: [
        mayAttempt(app, (p) => controlPlanePatch(app, p)),
        editControlPlaneConfigBody.preValidation,
      ],
      schema: {
        tags: ['nodepools'],
        summary:
          "O-EDIT-CP-CONFIG: the KubeadmControlPlane's kubeadmConfigSpec (files, kubelet patch R-BOOT-1, users, commands); KCP rolls its machines one at a time",
        params: ClusterParams,
        querystring: DryRunQuery,
        body: editControlPlaneConfigBody.body,
        response: { 200: PlanSchema.or(MutationResultSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { namespace, cluster } = request.params;
      const principal = await app.principalOf(request);
      kcpOf(namespace, cluster);
      const outcome = await app.mutations.run(
        principal,
        {
          action: 'controlplane.editConfig',
          namespace,
          cluster,
          request: request.body,
          plan: (req, ctx) =>
            planEditControlPlaneConfig(
              req,
              { kubeadmControlPlane: kcpOf(namespace, cluster) },
              ctx,
            ),
        },
        request.query.dryRun,
      );
      return replyWith(reply, outcome);
    },
  );
  return Promise.resolve();
};

export default controlPlaneConfig;
