import { ipPoolView, planCreateIpPool, planPatchIpPool, type IpPoolView } from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ObjectCache } from '../../cache/object-cache';
import { notFound } from '../../http/errors';
import {
  DryRunQuery,
  errorResponses,
  IpPoolParams,
  IpPoolViewSchema,
  MutationResultSchema,
  NamespaceParams,
  PlanSchema,
} from '../../http/schemas';
import { IP_POOL_KINDS, mayAttempt, readerOf } from './access';
import { servedBody } from '../../requests/served-fields';
import { replyWith } from './mutation-reply';

/** `GET|POST /namespaces/{ns}/ippools`, `GET|PATCH /namespaces/{ns}/ippools/{name}` (R-POOL-*). */

function viewOf(cache: ObjectCache, namespace: string, name: string): IpPoolView | undefined {
  const s = cache.stores;
  const pool = s.DCSIpHostnamePool.get(namespace, name);
  if (!pool) return undefined;
  // R-POOL-1: worker pools and control planes whose machine template names the pool.
  const consumers = s.DCSMachineTemplate.byIndex('ipPool', `${namespace}/${name}`).flatMap((t) => {
    const template = `${namespace}/${t.metadata.name ?? ''}`;
    return [
      ...s.KubeadmControlPlane.byIndex('template', template),
      ...s.MachineDeployment.byIndex('template', template),
    ];
  });
  return ipPoolView(pool, s.DCSMachine.byIndex('ipPool', `${namespace}/${name}`), consumers);
}

const ippools: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const mutationLimit = { max: app.config.mutationRatePerMinute, timeWindow: 60_000 };
  // Issue 11: the parts a request writes are judged by the schemas the cluster serves.
  const createIpPoolBody = servedBody(() => app.servedFields, 'CreateIpPoolRequestSchema');
  const patchIpPoolBody = servedBody(() => app.servedFields, 'PatchIpPoolRequestSchema');
  const responses = {
    200: PlanSchema.or(MutationResultSchema),
    201: MutationResultSchema,
    ...errorResponses,
  };

  app.get(
    '/namespaces/:namespace/ippools',
    {
      schema: {
        tags: ['ippools'],
        summary: 'Every IP-hostname pool of the namespace with claims and consumers',
        params: NamespaceParams,
        response: { 200: z.array(IpPoolViewSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { namespace } = request.params;
      await readerOf(app, request, namespace, IP_POOL_KINDS);
      return app.cache.stores.DCSIpHostnamePool.inNamespace(namespace)
        .flatMap((p) => {
          const v = viewOf(app.cache, namespace, p.metadata.name ?? '');
          return v ? [v] : [];
        })
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
  );

  app.get(
    '/namespaces/:namespace/ippools/:name',
    {
      schema: {
        tags: ['ippools'],
        summary: 'One IP-hostname pool',
        params: IpPoolParams,
        response: { 200: IpPoolViewSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, name } = request.params;
      await readerOf(app, request, namespace, IP_POOL_KINDS);
      const view = viewOf(app.cache, namespace, name);
      if (!view) throw notFound(`IP pool ${namespace}/${name} not found`, 'name');
      return view;
    },
  );

  app.post(
    '/namespaces/:namespace/ippools',
    {
      config: { rateLimit: mutationLimit },
      preValidation: [
        mayAttempt(app, (p) => ({
          verb: 'create',
          kind: 'DCSIpHostnamePool',
          namespace: p.namespace ?? '',
        })),
        createIpPoolBody.preValidation,
      ],
      schema: {
        tags: ['ippools'],
        summary: 'Create an IP-hostname pool',
        params: NamespaceParams,
        querystring: DryRunQuery,
        body: createIpPoolBody.body,
        response: responses,
      },
    },
    async (request, reply) => {
      const { namespace } = request.params;
      const principal = await app.principalOf(request);
      const outcome = await app.mutations.run(
        principal,
        {
          action: 'ippool.create',
          namespace,
          cluster: '',
          request: request.body,
          plan: planCreateIpPool,
        },
        request.query.dryRun,
      );
      return replyWith(reply, outcome, 201);
    },
  );

  app.patch(
    '/namespaces/:namespace/ippools/:name',
    {
      config: { rateLimit: mutationLimit },
      preValidation: [
        mayAttempt(app, (p) => ({
          verb: 'patch',
          kind: 'DCSIpHostnamePool',
          namespace: p.namespace ?? '',
          name: p.name ?? '',
        })),
        patchIpPoolBody.preValidation,
      ],
      schema: {
        tags: ['ippools'],
        summary:
          'Append, remove unclaimed, or update entries: never a blind replacement (R-POOL-4..6)',
        params: IpPoolParams,
        querystring: DryRunQuery,
        body: patchIpPoolBody.body,
        response: responses,
      },
    },
    async (request, reply) => {
      const { namespace, name } = request.params;
      const principal = await app.principalOf(request);
      const current = () => {
        const pool = app.cache.stores.DCSIpHostnamePool.get(namespace, name);
        if (!pool) throw notFound(`IP pool ${namespace}/${name} not found`, 'name');
        return pool;
      };
      current();
      const outcome = await app.mutations.run(
        principal,
        {
          action: 'ippool.patch',
          namespace,
          cluster: '',
          request: request.body,
          plan: (req, ctx) => planPatchIpPool(name, req, current(), ctx),
        },
        request.query.dryRun,
      );
      return replyWith(reply, outcome);
    },
  );
  return Promise.resolve();
};

export default ippools;
