import fp from 'fastify-plugin';
import { createMetrics, type Metrics } from '../../metrics/metrics';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** Prometheus instruments, and the latency of every HTTP request by route pattern. */
export default fp(
  (app, _opts, done) => {
    const metrics = createMetrics();
    app.decorate('metrics', metrics);
    app.addHook('onResponse', (request, reply, next) => {
      const route = request.routeOptions.url ?? 'unmatched';
      // The stream's latency is its lifetime, not a response time.
      if (route !== '/api/v1/stream') {
        metrics.httpDuration.observe(
          { method: request.method, route, status: String(reply.statusCode) },
          reply.elapsedTime / 1000,
        );
      }
      next();
    });
    done();
  },
  { name: 'metrics', dependencies: ['config'] },
);
