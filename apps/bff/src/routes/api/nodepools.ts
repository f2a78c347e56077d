import { CONTROL_PLANE_POOL_ID, type NodePoolView } from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors';
import {
  ClusterParams,
  errorResponses,
  MachineViewSchema,
  NodePoolViewSchema,
  PoolParams,
} from '../../http/schemas';
import { clusterDiagnostics, eventsOfPool, poolDiagnostics } from '../../views/diagnostics';
import { eventsOfObjects } from '../../views/events';
import { poolObjects } from '../../views/object-names';
import { clusterTimeline, poolTimeline } from '../../views/timeline';
import { readerOf } from './access';
import { EventFilterQuery, EventsViewSchema, filterOf } from './events';
import { nodesFor } from './nodes';

/**
 * The read routes of node pools and their machines: views from the shared cache, after the
 * user's access review.
 */
const nodepools: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  const modelOf = (namespace: string, cluster: string) => {
    const model = app.views.current(namespace, cluster);
    if (!model.exists()) throw notFound(`cluster ${namespace}/${cluster} not found`, 'cluster');
    return model;
  };
  const poolOf = (namespace: string, cluster: string, pool: string) => {
    const model = modelOf(namespace, cluster);
    const view = model.pool(pool);
    if (!view) throw notFound(`node pool ${pool} not found in ${namespace}/${cluster}`, 'pool');
    return { model, view };
  };

  app.get(
    '/clusters/:namespace/:cluster/nodepools',
    {
      schema: {
        tags: ['nodepools'],
        summary: 'The control-plane pool (id `control-plane`) and every worker pool',
        params: ClusterParams,
        response: { 200: z.array(NodePoolViewSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { namespace, cluster } = request.params;
      await readerOf(app, request, namespace);
      // Serialized once per change of the model, not once per request (the console's hot read).
      const json = modelOf(namespace, cluster).poolsJson();
      return reply
        .type('application/json; charset=utf-8')
        .serializer((payload) => payload as string)
        .send(json as unknown as NodePoolView[]);
    },
  );

  app.get(
    '/clusters/:namespace/:cluster/machines',
    {
      schema: {
        tags: ['nodepools'],
        summary:
          'Every machine of the cluster (the Nodes tab), pools’ and unpooled alike, by name; the same views as a pool’s machines',
        params: ClusterParams,
        response: { 200: z.array(MachineViewSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, cluster } = request.params;
      await readerOf(app, request, namespace);
      return modelOf(namespace, cluster).machines();
    },
  );

  app.get(
    '/clusters/:namespace/:cluster/nodepools/:pool',
    {
      schema: {
        tags: ['nodepools'],
        summary: 'One node pool',
        params: PoolParams,
        response: { 200: NodePoolViewSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, cluster, pool } = request.params;
      await readerOf(app, request, namespace);
      return poolOf(namespace, cluster, pool).view;
    },
  );

  app.get(
    '/clusters/:namespace/:cluster/nodepools/:pool/machines',
    {
      schema: {
        tags: ['nodepools'],
        summary: 'The machines of a pool',
        params: PoolParams,
        response: { 200: z.array(MachineViewSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, cluster, pool } = request.params;
      await readerOf(app, request, namespace);
      return poolOf(namespace, cluster, pool).model.machinesOf(pool);
    },
  );

  app.get(
    '/clusters/:namespace/:cluster/nodepools/:pool/events',
    {
      schema: {
        tags: ['nodepools'],
        summary:
          'Events of the pool’s objects (both Event APIs, read with the user’s credential), newest first, by type and reason',
        params: PoolParams,
        querystring: EventFilterQuery,
        response: { 200: EventsViewSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, cluster, pool } = request.params;
      const principal = await readerOf(app, request, namespace);
      const { model } = poolOf(namespace, cluster, pool);
      const wanted = poolObjects(app.cache, namespace, cluster, pool, model.machinesOf(pool));
      return eventsOfObjects(principal, namespace, wanted, filterOf(request.query));
    },
  );

  app.get(
    '/clusters/:namespace/:cluster/nodepools/:pool/diagnostics',
    {
      schema: {
        tags: ['nodepools'],
        summary:
          'A diagnostics bundle to download: views, objects and events; Secret contents left out',
        params: PoolParams,
        response: { 200: z.looseObject({ pool: NodePoolViewSchema }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { namespace, cluster, pool } = request.params;
      const principal = await readerOf(app, request, namespace);
      const { model, view } = poolOf(namespace, cluster, pool);
      const machines = model.machinesOf(pool);
      const events = await eventsOfPool(app.cache, principal, namespace, cluster, pool, machines);
      const file = `diagnostics-${namespace}-${cluster}-${pool === CONTROL_PLANE_POOL_ID ? 'control-plane' : pool}.json`;
      void reply.header('content-disposition', `attachment; filename="${file}"`);
      const timeline = await poolTimeline(app.cache, principal, model, pool, {}, app.config.audit);
      // A bundle is still written when the Nodes cannot be read (the reason is in `nodes` otherwise).
      const nodes = await nodesFor(app, principal, namespace, cluster).catch(() => undefined);
      return poolDiagnostics(
        app.cache,
        namespace,
        cluster,
        view,
        machines,
        events,
        app.globals(),
        timeline,
        nodes,
      );
    },
  );

  app.get(
    '/clusters/:namespace/:cluster/diagnostics',
    {
      schema: {
        tags: ['clusters'],
        summary:
          'A whole cluster’s diagnostics bundle to download: every pool, machine (with its node state) and IP pool it uses, their objects and events; Secret contents left out',
        params: ClusterParams,
        response: {
          200: z.looseObject({ pools: z.array(NodePoolViewSchema) }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { namespace, cluster } = request.params;
      const principal = await readerOf(app, request, namespace);
      const model = modelOf(namespace, cluster);
      void reply.header(
        'content-disposition',
        `attachment; filename="diagnostics-${namespace}-${cluster}.json"`,
      );
      const timeline = await clusterTimeline(app.cache, principal, model, {}, app.config.audit);

      // A bundle is still written when the Nodes cannot be read (the reason is in `nodes` otherwise).
      const nodes = await nodesFor(app, principal, namespace, cluster).catch(() => undefined);
      return clusterDiagnostics(app.cache, principal, model, app.globals(), timeline, nodes);
    },
  );
  return Promise.resolve();
};

export default nodepools;
