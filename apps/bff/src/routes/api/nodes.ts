import type { Machine, NodeSummary } from '@dcs/domain';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Principal } from '../../auth/principal';
import { notFound } from '../../http/errors';
import { ClusterNodesViewSchema, ClusterParams, errorResponses } from '../../http/schemas';
import { readerOf } from './access';

/** The Machines of one cluster (the cache's `cluster` index, as the views use), for the join. */
export function machinesOfCluster(
  app: FastifyInstance,
  namespace: string,
  cluster: string,
): readonly Machine[] {
  return app.cache.stores.Machine.byIndex('cluster', `${namespace}/${cluster}`);
}

/** The user's view of a cluster's Nodes (issue 12): the same for the route and the diagnostics. */
export function nodesFor(
  app: FastifyInstance,
  principal: Principal,
  namespace: string,
  cluster: string,
) {
  return answerFor(app, principal, namespace, cluster).then((a) => a.view);
}

function answerFor(app: FastifyInstance, principal: Principal, namespace: string, cluster: string) {
  return app.workloadNodes.answer(
    principal,
    namespace,
    cluster,
    machinesOfCluster(app, namespace, cluster),
  );
}

const NodesQuery = z.strictObject({
  fields: z
    .enum(['summary'])
    .optional()
    .describe(
      'summary: each Node as one line (name, machine, state, ready, unschedulable, kubeletVersion), for the machines tables',
    ),
  name: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'a Node name (RFC 1123 subdomain)')
    .max(253)
    .optional()
    .describe('only the Node of this name (none when the workload cluster has no such Node)'),
});

/**
 * `GET /clusters/{namespace}/{cluster}/nodes`: the workload cluster's Nodes joined to the
 * machines, for a user who may read the cluster's views and its kubeconfig Secret; otherwise a
 * 200 that says why there are none (forbidden, not initialized, unreachable since …).
 */
const nodes: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/clusters/:namespace/:cluster/nodes',
    {
      schema: {
        tags: ['clusters'],
        summary:
          'The workload cluster’s Nodes (read through its <cluster>-kubeconfig Secret, which never leaves the server), each with the machine whose nodeRef names it; or why they cannot be shown',
        params: ClusterParams,
        querystring: NodesQuery,
        response: {
          200: ClusterNodesViewSchema,
          304: z.null().describe('Not modified: the ETag given in If-None-Match still holds'),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { namespace, cluster } = request.params;
      const { fields, name } = request.query;
      const principal = await readerOf(app, request, namespace);
      if (!app.views.current(namespace, cluster).exists()) {
        throw notFound(`cluster ${namespace}/${cluster} not found`, 'cluster');
      }
      const answer = await answerFor(app, principal, namespace, cluster);
      // Browsers poll this (issue 12: the web app every few seconds per open cluster page). An
      // answer with Nodes carries an ETag of the watch's resourceVersion and the machines' join
      // keys, so an unchanged poll is a 304 with no body; the rights were checked above, before
      // anything is compared. Reasons (forbidden, unreachable…) are small and never cached.
      if (answer.version !== undefined) {
        const etag = `W/"${answer.version}.${fields ?? 'full'}.${name ?? ''}"`;
        void reply.header('etag', etag).header('cache-control', 'private, no-cache');
        if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      }
      const view = fields === 'summary' ? answer.summaries() : answer.view;
      if (name === undefined || view.status !== 'ok') return view;
      // One Node (the machine page): the answer filtered; a Node that is gone is no 404.
      return { ...view, nodes: view.nodes.filter((n: NodeSummary) => n.name === name) };
    },
  );
  return Promise.resolve();
};

export default nodes;
