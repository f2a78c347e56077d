import {
  CONTROL_PLANE_POOL_ID,
  planRestart,
  RestartRequestSchema,
  type KubeadmControlPlane,
  type MachineDeployment,
} from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../http/errors';
import {
  DryRunQuery,
  errorResponses,
  MutationResultSchema,
  PlanSchema,
  PoolParams,
} from '../../http/schemas';
import { mayAttempt, poolPatch } from './access';
import { replyWith } from './mutation-reply';

/**
 * O-RESTART (issue 26 item 4): a rollout restart of one pool, through `rolloutAfter` of its
 * MachineDeployment, or of the KubeadmControlPlane for the control-plane pool. "Now" is this
 * server's clock at the moment the plan is made (Preview and Apply each make theirs), never the
 * browser's: the browser may be minutes off, and Cluster API compares the time with its own
 * clock. Thin handler: the planner is the domain's `planRestart`, the mutation service previews,
 * applies, rebases or answers 409, and records the audit line.
 */
const restart: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const stores = app.cache.stores;
  const mutationLimit = { max: app.config.mutationRatePerMinute, timeWindow: 60_000 };

  const controlPlaneOf = (namespace: string, cluster: string): KubeadmControlPlane | undefined => {
    const view = app.views.current(namespace, cluster).pool(CONTROL_PLANE_POOL_ID);
    return view ? stores.KubeadmControlPlane.get(namespace, view.name) : undefined;
  };

  /** The pool's object, its machines and (a worker pool's) MachineSets, from the cache. */
  const poolOf = (namespace: string, cluster: string, pool: string) => {
    if (pool === CONTROL_PLANE_POOL_ID) {
      const kcp = controlPlaneOf(namespace, cluster);
      if (!kcp) throw notFound(`control plane of ${namespace}/${cluster} not found`, 'pool');
      return {
        target: kcp,
        machines: stores.Machine.byIndex(
          'pool',
          `${namespace}/${CONTROL_PLANE_POOL_ID}@${cluster}`,
        ),
      };
    }
    const md: MachineDeployment | undefined = stores.MachineDeployment.get(namespace, pool);
    if (md?.spec?.clusterName !== cluster)
      throw notFound(`node pool ${pool} not found in ${namespace}/${cluster}`, 'pool');
    return {
      target: md,
      machines: stores.Machine.byIndex('pool', `${namespace}/${pool}`),
      machineSets: stores.MachineSet.byIndex('deployment', `${namespace}/${pool}`),
    };
  };

  app.post(
    '/clusters/:namespace/:cluster/nodepools/:pool/restart',
    {
      config: { rateLimit: mutationLimit },
      preValidation: mayAttempt(app, (p) => poolPatch(app, p)),
      schema: {
        tags: ['nodepools'],
        summary:
          'O-RESTART of one pool: rolloutAfter of its MachineDeployment or of the KubeadmControlPlane (v1beta2 spec.rollout.after), now by this server’s clock or at a time; the plan names the machines replaced and their order (R-RESTART-1..6)',
        params: PoolParams,
        querystring: DryRunQuery,
        body: RestartRequestSchema,
        response: { 200: PlanSchema.or(MutationResultSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { namespace, cluster, pool } = request.params;
      const principal = await app.principalOf(request);
      poolOf(namespace, cluster, pool);
      const outcome = await app.mutations.run(
        principal,
        {
          action: 'nodepool.restart',
          namespace,
          cluster,
          request: request.body,
          // The server's clock, read when the plan is made: a rebase or a retry after a 409
          // re-plans, and takes the time again.
          plan: (req, ctx) => planRestart(req, poolOf(namespace, cluster, pool), ctx, new Date()),
        },
        request.query.dryRun,
      );
      return replyWith(reply, outcome);
    },
  );
  return Promise.resolve();
};

export default restart;
