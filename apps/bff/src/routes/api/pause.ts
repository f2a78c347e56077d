import {
  CONTROL_PLANE_POOL_ID,
  PauseRequestSchema,
  planPause,
  type KubeadmControlPlane,
  type MachineDeployment,
} from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../http/errors';
import {
  ClusterParams,
  DryRunQuery,
  errorResponses,
  MutationResultSchema,
  PlanSchema,
  PoolParams,
} from '../../http/schemas';
import { mayAttempt, poolPatch } from './access';
import { replyWith } from './mutation-reply';

/**
 * O-PAUSE / O-RESUME (issue 26): stop or restart Cluster API's reconciliation of a cluster
 * (`spec.paused`) or of one of its pools (the paused annotation on its MachineDeployment, or on
 * the KubeadmControlPlane for the control-plane pool). Thin handlers: the planner is the
 * domain's `planPause`, the mutation service previews, applies, rebases or answers 409, and
 * records the audit line.
 */
const pause: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const stores = app.cache.stores;
  const mutationLimit = { max: app.config.mutationRatePerMinute, timeWindow: 60_000 };

  const clusterOf = (namespace: string, cluster: string) => {
    const c = stores.Cluster.get(namespace, cluster);
    if (!c) throw notFound(`cluster ${namespace}/${cluster} not found`, 'cluster');
    return c;
  };

  /** The cluster's pools, as the plan's notes name them (what stops midway, what waits). */
  const poolsOf = (namespace: string, cluster: string) => {
    const mds = stores.MachineDeployment.inNamespace(namespace).filter(
      (md) => md.spec?.clusterName === cluster,
    );
    const kcp = controlPlaneOf(namespace, cluster);
    return [...(kcp ? [kcp] : []), ...mds];
  };

  const controlPlaneOf = (namespace: string, cluster: string): KubeadmControlPlane | undefined => {
    const view = app.views.current(namespace, cluster).pool(CONTROL_PLANE_POOL_ID);
    return view ? stores.KubeadmControlPlane.get(namespace, view.name) : undefined;
  };

  const poolObjectOf = (
    namespace: string,
    cluster: string,
    pool: string,
  ): MachineDeployment | KubeadmControlPlane => {
    if (pool === CONTROL_PLANE_POOL_ID) {
      const kcp = controlPlaneOf(namespace, cluster);
      if (!kcp) throw notFound(`control plane of ${namespace}/${cluster} not found`, 'pool');
      return kcp;
    }
    const md = stores.MachineDeployment.get(namespace, pool);
    if (md?.spec?.clusterName !== cluster)
      throw notFound(`node pool ${pool} not found in ${namespace}/${cluster}`, 'pool');
    return md;
  };

  app.post(
    '/clusters/:namespace/:cluster/pause',
    {
      config: { rateLimit: mutationLimit },
      preValidation: mayAttempt(app, (p) => ({
        verb: 'patch',
        kind: 'Cluster',
        namespace: p.namespace ?? '',
        name: p.cluster ?? '',
      })),
      schema: {
        tags: ['clusters'],
        summary:
          'O-PAUSE / O-RESUME of a cluster: its spec.paused; Cluster API reconciles none of its objects while it is set (R-PAUSE-1)',
        params: ClusterParams,
        querystring: DryRunQuery,
        body: PauseRequestSchema,
        response: { 200: PlanSchema.or(MutationResultSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { namespace, cluster } = request.params;
      const principal = await app.principalOf(request);
      clusterOf(namespace, cluster);
      const outcome = await app.mutations.run(
        principal,
        {
          action: request.body.paused ? 'cluster.pause' : 'cluster.resume',
          namespace,
          cluster,
          request: request.body,
          plan: (req, ctx) =>
            planPause(
              req,
              { target: clusterOf(namespace, cluster), pools: poolsOf(namespace, cluster) },
              ctx,
            ),
        },
        request.query.dryRun,
      );
      return replyWith(reply, outcome);
    },
  );

  app.post(
    '/clusters/:namespace/:cluster/nodepools/:pool/pause',
    {
      config: { rateLimit: mutationLimit },
      preValidation: mayAttempt(app, (p) => poolPatch(app, p)),
      schema: {
        tags: ['nodepools'],
        summary:
          'O-PAUSE / O-RESUME of one pool: the cluster.x-k8s.io/paused annotation on its MachineDeployment, or on the KubeadmControlPlane (R-PAUSE-2, R-PAUSE-3)',
        params: PoolParams,
        querystring: DryRunQuery,
        body: PauseRequestSchema,
        response: { 200: PlanSchema.or(MutationResultSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { namespace, cluster, pool } = request.params;
      const principal = await app.principalOf(request);
      poolObjectOf(namespace, cluster, pool);
      const outcome = await app.mutations.run(
        principal,
        {
          action: request.body.paused ? 'nodepool.pause' : 'nodepool.resume',
          namespace,
          cluster,
          request: request.body,
          plan: (req, ctx) =>
            planPause(
              req,
              {
                target: poolObjectOf(namespace, cluster, pool),
                cluster: stores.Cluster.get(namespace, cluster),
              },
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

export default pause;
