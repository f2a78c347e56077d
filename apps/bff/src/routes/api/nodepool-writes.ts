import {
  CONTROL_PLANE_POOL_ID,
  DeletePoolRequestSchema,
  EditStrategyRequestSchema,
  planCreatePool,
  planDeletePool,
  planEditStrategy,
  planScale,
  planUpgrade,
} from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError, issue, notFound } from '../../http/errors';
import {
  ClusterParams,
  DryRunQuery,
  errorResponses,
  MutationResultSchema,
  PlanSchema,
  PoolParams,
} from '../../http/schemas';
import { verifyTargetedScaleDown } from '../../mutations/verify-scale-down';
import { servedBody } from '../../requests/served-fields';
import type { Check } from '../../auth/authorizer';
import { mayAttempt, poolPatch, workerPoolCheck } from './access';
import { workerDeploymentOf } from './pool-target';
import { replyWith } from './mutation-reply';

/**
 * The mutating node-pool routes: thin handlers that name the planner of DOMAIN.md §3 and the
 * cached objects it starts from; the mutation service does the rest (mutations/service.ts).
 */

export interface WriteRouteOptions {
  /** How long O-SCALE-DOWN-TARGETED watches for the machines entering Deleting. */
  verifyScaleDownMs?: number;
}

const responses = {
  200: PlanSchema.or(MutationResultSchema),
  201: MutationResultSchema,
  ...errorResponses,
};

const nodepoolWrites: FastifyPluginAsync<WriteRouteOptions> = (base, opts) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const stores = app.cache.stores;
  const mutationLimit = { max: app.config.mutationRatePerMinute, timeWindow: 60_000 };
  // Issue 11: the parts a request writes are judged by the schemas the cluster serves.
  const createPoolBody = servedBody(() => app.servedFields, 'CreatePoolRequestSchema');
  const scaleBody = servedBody(() => app.servedFields, 'ScaleRequestSchema');
  const upgradeBody = servedBody(() => app.servedFields, 'UpgradeRequestSchema');

  /** What a pool's own operations need first: patch its MachineDeployment, or its control plane. */
  const patchOfPool = (p: Readonly<Record<string, string | undefined>>): Check | undefined =>
    poolPatch(app, p);

  const deploymentOf = (namespace: string, cluster: string, pool: string) =>
    workerDeploymentOf(stores.MachineDeployment, namespace, cluster, pool, {
      rule: 'R-MD-5',
      message: 'the control-plane pool has fixed replicas and is not deleted; use upgrade',
    });

  app.post(
    '/clusters/:namespace/:cluster/nodepools',
    {
      config: { rateLimit: mutationLimit },
      preValidation: [
        mayAttempt(app, (p) => ({
          verb: 'create',
          kind: 'MachineDeployment',
          namespace: p.namespace ?? '',
        })),
        createPoolBody.preValidation,
      ],
      schema: {
        tags: ['nodepools'],
        summary:
          'O-CREATE-POOL: IP pool, machine template, bootstrap template, MachineDeployment, undone together on failure',
        params: ClusterParams,
        querystring: DryRunQuery,
        body: createPoolBody.body,
        response: responses,
      },
    },
    async (request, reply) => {
      const { namespace, cluster } = request.params;
      const principal = await app.principalOf(request);
      if (!stores.Cluster.get(namespace, cluster))
        throw notFound(`cluster ${namespace}/${cluster} not found`, 'cluster');
      const outcome = await app.mutations.run(
        principal,
        {
          action: 'nodepool.create',
          namespace,
          cluster,
          request: request.body,
          plan: (req, ctx) => {
            const ipPool =
              req.ipPool.mode === 'existing'
                ? stores.DCSIpHostnamePool.get(namespace, req.ipPool.name)
                : undefined;
            return planCreatePool(req, ipPool ? { ipPool } : {}, ctx);
          },
        },
        request.query.dryRun,
      );
      return replyWith(reply, outcome, 201);
    },
  );

  app.post(
    '/clusters/:namespace/:cluster/nodepools/:pool/scale',
    {
      config: { rateLimit: mutationLimit },
      preValidation: [mayAttempt(app, patchOfPool), scaleBody.preValidation],
      schema: {
        tags: ['nodepools'],
        summary:
          'O-SCALE-UP / O-SCALE-DOWN-RANDOM ({replicas}) or O-SCALE-DOWN-TARGETED ({deleteMachines})',
        params: PoolParams,
        querystring: DryRunQuery,
        body: scaleBody.body,
        response: responses,
      },
    },
    async (request, reply) => {
      const { namespace, cluster, pool } = request.params;
      const principal = await app.principalOf(request);
      deploymentOf(namespace, cluster, pool);
      const deletingBefore = new Set(
        stores.Machine.byIndex('pool', `${namespace}/${pool}`)
          .filter((m) => m.metadata.deletionTimestamp !== undefined)
          .map((m) => m.metadata.name ?? ''),
      );
      const outcome = await app.mutations.run(
        principal,
        {
          action: 'deleteMachines' in request.body ? 'nodepool.deleteMachines' : 'nodepool.scale',
          namespace,
          cluster,
          request: request.body,
          plan: (req, ctx) => {
            const md = deploymentOf(namespace, cluster, pool);
            const append = 'ipPoolAppend' in req ? req.ipPoolAppend : undefined;
            const ipPool = append
              ? stores.DCSIpHostnamePool.get(namespace, append.name)
              : undefined;
            return planScale(
              req,
              {
                machineDeployment: md,
                machines: stores.Machine.byIndex('pool', `${namespace}/${pool}`),
                ...(ipPool ? { ipPool } : {}),
              },
              ctx,
            );
          },
          ...('deleteMachines' in request.body
            ? {
                verify: (plan) =>
                  verifyTargetedScaleDown(
                    app.cache,
                    plan,
                    deletingBefore,
                    opts.verifyScaleDownMs ?? 5000,
                  ),
              }
            : {}),
        },
        request.query.dryRun,
      );
      return replyWith(reply, outcome);
    },
  );

  app.post(
    '/clusters/:namespace/:cluster/nodepools/:pool/upgrade',
    {
      config: { rateLimit: mutationLimit },
      preValidation: [mayAttempt(app, patchOfPool), upgradeBody.preValidation],
      schema: {
        tags: ['nodepools'],
        summary:
          'O-UPGRADE-INFRA, O-UPGRADE-K8S, O-UPDATE-BOOTSTRAP; O-UPGRADE-CP for `control-plane`',
        params: PoolParams,
        querystring: DryRunQuery,
        body: upgradeBody.body,
        response: responses,
      },
    },
    async (request, reply) => {
      const { namespace, cluster, pool } = request.params;
      const principal = await app.principalOf(request);
      const isCp = pool === CONTROL_PLANE_POOL_ID;
      if (isCp !== (request.body.operation === 'control-plane')) {
        throw new HttpError(
          400,
          'WrongOperation',
          'operation `control-plane` is for the control-plane pool, and only it',
          [
            issue(
              'R-MD-5',
              'operation',
              'bff.pool.operation',
              'operation `control-plane` applies to pool `control-plane` only',
            ),
          ],
        );
      }
      const kcpOf = () => {
        const kcp = app.views.current(namespace, cluster).pool(CONTROL_PLANE_POOL_ID);
        const obj = kcp ? stores.KubeadmControlPlane.get(namespace, kcp.name) : undefined;
        if (!obj) throw notFound(`control plane of ${namespace}/${cluster} not found`, 'pool');
        return obj;
      };
      if (isCp) kcpOf();
      else deploymentOf(namespace, cluster, pool);
      const outcome = await app.mutations.run(
        principal,
        {
          action: isCp ? 'controlplane.upgrade' : 'nodepool.upgrade',
          namespace,
          cluster,
          request: request.body,
          plan: (req, ctx) => {
            if (isCp) {
              const kcp = kcpOf();
              const tpl = stores.DCSMachineTemplate.get(
                namespace,
                kcp.spec?.machineTemplate.infrastructureRef.name ?? '',
              );
              return planUpgrade(
                req,
                { kubeadmControlPlane: kcp, ...(tpl ? { machineTemplate: tpl } : {}) },
                ctx,
              );
            }
            const md = deploymentOf(namespace, cluster, pool);
            const spec = md.spec?.template.spec;
            const tpl = stores.DCSMachineTemplate.get(
              namespace,
              spec?.infrastructureRef.name ?? '',
            );
            const kct = stores.KubeadmConfigTemplate.get(
              namespace,
              spec?.bootstrap.configRef?.name ?? '',
            );
            return planUpgrade(
              req,
              {
                machineDeployment: md,
                ...(tpl ? { machineTemplate: tpl } : {}),
                ...(kct ? { bootstrapTemplate: kct } : {}),
              },
              ctx,
            );
          },
        },
        request.query.dryRun,
      );
      return replyWith(reply, outcome);
    },
  );

  app.post(
    '/clusters/:namespace/:cluster/nodepools/:pool/strategy',
    {
      config: { rateLimit: mutationLimit },
      preValidation: mayAttempt(app, patchOfPool),
      schema: {
        tags: ['nodepools'],
        summary:
          'O-EDIT-STRATEGY: maxSurge, maxUnavailable and node timeouts of a worker pool, in place (R-MD-2, R-MD-3)',
        params: PoolParams,
        querystring: DryRunQuery,
        body: EditStrategyRequestSchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const { namespace, cluster, pool } = request.params;
      const principal = await app.principalOf(request);
      deploymentOf(namespace, cluster, pool);
      const outcome = await app.mutations.run(
        principal,
        {
          action: 'nodepool.editStrategy',
          namespace,
          cluster,
          request: request.body,
          plan: (req, ctx) =>
            planEditStrategy(
              req,
              { machineDeployment: deploymentOf(namespace, cluster, pool) },
              ctx,
            ),
        },
        request.query.dryRun,
      );
      return replyWith(reply, outcome);
    },
  );

  app.delete(
    '/clusters/:namespace/:cluster/nodepools/:pool',
    {
      config: { rateLimit: mutationLimit },
      preValidation: mayAttempt(app, workerPoolCheck('delete')),
      schema: {
        tags: ['nodepools'],
        summary: 'O-DELETE-POOL, optionally removing the templates and IP pool only this pool used',
        params: PoolParams,
        querystring: DryRunQuery,
        body: DeletePoolRequestSchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const { namespace, cluster, pool } = request.params;
      const principal = await app.principalOf(request);
      deploymentOf(namespace, cluster, pool);
      const outcome = await app.mutations.run(
        principal,
        {
          action: 'nodepool.delete',
          namespace,
          cluster,
          request: request.body,
          plan: (req, ctx) => {
            const md = deploymentOf(namespace, cluster, pool);
            const spec = md.spec?.template.spec;
            const tpl = stores.DCSMachineTemplate.get(
              namespace,
              spec?.infrastructureRef.name ?? '',
            );
            const kct = stores.KubeadmConfigTemplate.get(
              namespace,
              spec?.bootstrap.configRef?.name ?? '',
            );
            const ipName = tpl?.spec?.template.spec.ipHostPoolRef.name;
            const ipPool =
              ipName !== undefined ? stores.DCSIpHostnamePool.get(namespace, ipName) : undefined;
            return planDeletePool(
              req,
              {
                machineDeployment: md,
                machines: stores.Machine.byIndex('pool', `${namespace}/${pool}`),
                machineDeployments: stores.MachineDeployment.inNamespace(namespace),
                kubeadmControlPlanes: stores.KubeadmControlPlane.inNamespace(namespace),
                machineSets: stores.MachineSet.inNamespace(namespace),
                // The pool's earlier templates are found among these (issue 25).
                machineTemplates: stores.DCSMachineTemplate.inNamespace(namespace),
                bootstrapTemplates: stores.KubeadmConfigTemplate.inNamespace(namespace),
                ...(tpl ? { machineTemplate: tpl } : {}),
                ...(kct ? { bootstrapTemplate: kct } : {}),
                ...(ipPool ? { ipPool } : {}),
                healthChecks: stores.MachineHealthCheck.inNamespace(namespace),
              },
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

export default nodepoolWrites;
