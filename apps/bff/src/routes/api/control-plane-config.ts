import { CONTROL_PLANE_POOL_ID, planEditControlPlaneConfig } from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
 * control plane. The current config is read with the raw-object route
 * (`GET …/objects/KubeadmControlPlane/{name}`), which carries the resourceVersion to send back.
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
