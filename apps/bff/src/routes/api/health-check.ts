import {
  CONTROL_PLANE_POOL_ID,
  healthCheckNameOf,
  healthChecksOfPool,
  HealthCheckRequestSchema,
  planCreateHealthCheck,
  planDeleteHealthCheck,
  planEditHealthCheck,
  poolHealthCheckView,
  type MachineDeployment,
  type MachineHealthCheck,
  type PoolHealthCheckView,
} from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors';
import {
  DryRunQuery,
  errorResponses,
  MutationResultSchema,
  PlanSchema,
  PoolParams,
} from '../../http/schemas';
import { mayAttempt, readerOf } from './access';
import { workerDeploymentOf } from './pool-target';
import { replyWith } from './mutation-reply';

/**
 * A worker pool's MachineHealthCheck (issue 26 item 1): `GET …/nodepools/{pool}/healthcheck`, the
 * pool's health check as the domain's `poolHealthCheckView` reads it from the cache (null when
 * none matches its machines), and `POST …/nodepools/{pool}/healthcheck`, whose `operation` is
 * O-MHC-CREATE, O-MHC-EDIT or O-MHC-DELETE: thin, the planners are the domain's, the mutation
 * service previews (`?dryRun=true`), applies, rebases or answers 409 and records the audit line.
 * The model is the hub's (v1beta1); a v1beta2 cluster gets the plan converted at the edge.
 */
const HealthCheckViewResponse = z.object({
  healthCheck: z.looseObject({ name: z.string() }).nullable(),
}) as unknown as z.ZodType<{ healthCheck: PoolHealthCheckView | null }>;

const healthCheck: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const stores = app.cache.stores;
  const mutationLimit = { max: app.config.mutationRatePerMinute, timeWindow: 60_000 };

  const deploymentOf = (namespace: string, cluster: string, pool: string) =>
    workerDeploymentOf(stores.MachineDeployment, namespace, cluster, pool, {
      rule: 'R-MHC-5',
      message:
        'the control plane remediates its own machines (KubeadmControlPlane): a health check here is for worker pools',
    });
  const checksIn = (namespace: string): MachineHealthCheck[] =>
    stores.MachineHealthCheck.list().filter((c) => c.metadata.namespace === namespace);
  /** The pool's own health check, else the first that matches its machines. */
  const checkOf = (md: MachineDeployment, namespace: string) => {
    const matching = healthChecksOfPool(md, checksIn(namespace));
    const own = healthCheckNameOf(md.metadata.name ?? '');
    return matching.find((c) => c.metadata.name === own) ?? matching[0];
  };

  app.get(
    '/clusters/:namespace/:cluster/nodepools/:pool/healthcheck',
    {
      schema: {
        tags: ['nodepools'],
        summary:
          'The worker pool’s MachineHealthCheck: its checks, limit, expected and healthy machines, remediations allowed, targets and, per machine, HealthCheckSucceeded and OwnerRemediated; null when none selects the pool',
        params: PoolParams,
        response: { 200: HealthCheckViewResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, cluster, pool } = request.params;
      await readerOf(app, request, namespace);
      const md = deploymentOf(namespace, cluster, pool);
      const machines = stores.Machine.byIndex('pool', `${namespace}/${pool}`);
      return { healthCheck: poolHealthCheckView(md, checksIn(namespace), machines) ?? null };
    },
  );

  app.post(
    '/clusters/:namespace/:cluster/nodepools/:pool/healthcheck',
    {
      config: { rateLimit: mutationLimit },
      preValidation: mayAttempt(app, (p) =>
        p.pool === CONTROL_PLANE_POOL_ID
          ? undefined
          : {
              verb: 'patch',
              kind: 'MachineHealthCheck',
              namespace: p.namespace ?? '',
              name: healthCheckNameOf(p.pool ?? ''),
            },
      ),
      schema: {
        tags: ['nodepools'],
        summary:
          'O-MHC-CREATE / O-MHC-EDIT / O-MHC-DELETE: the worker pool’s MachineHealthCheck — unhealthy node conditions with timeouts, node start-up timeout, maxUnhealthy or unhealthyRange (v1beta2 checks and remediation.triggerIf) (R-MHC-1..7)',
        params: PoolParams,
        querystring: DryRunQuery,
        body: HealthCheckRequestSchema,
        response: { 200: PlanSchema.or(MutationResultSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { namespace, cluster, pool } = request.params;
      const principal = await app.principalOf(request);
      deploymentOf(namespace, cluster, pool);
      const body = request.body;
      const outcome = await app.mutations.run(
        principal,
        {
          action: `nodepool.healthCheck.${body.operation}`,
          namespace,
          cluster,
          request: body,
          plan: (req, ctx) => {
            const md = deploymentOf(namespace, cluster, pool);
            const checks = checksIn(namespace);
            if (req.operation === 'create') {
              return planCreateHealthCheck(
                req,
                { machineDeployment: md, healthChecks: checks },
                ctx,
              );
            }
            const current = checkOf(md, namespace);
            if (req.operation === 'delete') {
              return planDeleteHealthCheck(
                req,
                { machineDeployment: md, healthCheck: current },
                ctx,
              );
            }
            if (!current) {
              throw notFound(`node pool ${pool} has no health check to edit`, 'pool');
            }
            return planEditHealthCheck(
              req,
              { machineDeployment: md, healthChecks: checks, healthCheck: current },
              ctx,
            );
          },
        },
        request.query.dryRun,
      );
      return replyWith(reply, outcome);
    },
  );
  return Promise.resolve();
};

export default healthCheck;
