import type { Machine } from '@dcs/domain';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Principal } from '../../auth/principal';
import { notFound } from '../../http/errors';
import { ClusterNodesViewSchema, ClusterParams, errorResponses } from '../../http/schemas';
import { readerOf } from './access';

/** The Machines of one cluster, from the shared cache, for the join by nodeRef. */
export function machinesOfCluster(
  app: FastifyInstance,
  namespace: string,
  cluster: string,
): Machine[] {
  return app.cache.stores.Machine.byIndex('namespace', namespace).filter(
    (m) => m.spec?.clusterName === cluster,
  );
}

/** The user's view of a cluster's Nodes (issue 12): the same for the route and the diagnostics. */
export function nodesFor(
  app: FastifyInstance,
  principal: Principal,
  namespace: string,
  cluster: string,
) {
  return app.workloadNodes.view(
    principal,
    namespace,
    cluster,
    machinesOfCluster(app, namespace, cluster),
  );
}

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
        response: { 200: ClusterNodesViewSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, cluster } = request.params;
      const principal = await readerOf(app, request, namespace);
      if (!app.views.current(namespace, cluster).exists()) {
        throw notFound(`cluster ${namespace}/${cluster} not found`, 'cluster');
      }
      return nodesFor(app, principal, namespace, cluster);
    },
  );
  return Promise.resolve();
};

export default nodes;
