import fp from 'fastify-plugin';
import { WorkloadNodes } from '../../nodes/workload-nodes';

declare module 'fastify' {
  interface FastifyInstance {
    /** The workload clusters' Nodes, one shared watch per cluster (issue 12). */
    workloadNodes: WorkloadNodes;
  }
}

/** Decorates `workloadNodes`; its watches stop when the app closes. */
export default fp(
  (app, _opts, done) => {
    const nodes = new WorkloadNodes({
      mayReadSecret: (principal, namespace, name) =>
        app.authorizer.allowed(principal, { verb: 'get', kind: 'Secret', namespace, name }),
      log: (message, error) => {
        app.log.warn({ err: error }, message);
      },
    });
    app.decorate('workloadNodes', nodes);
    app.addHook('onClose', async () => {
      await nodes.close();
    });
    done();
  },
  { name: 'workload-nodes', dependencies: ['auth'] },
);
