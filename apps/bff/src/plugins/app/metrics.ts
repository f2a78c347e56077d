import fp from 'fastify-plugin';
import { createMetrics, type Metrics } from '../../metrics/metrics';
import { listenMetrics, type MetricsServer } from '../../metrics/server';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
    /** Where `/metrics` is served once the app is ready (METRICS_PORT); undefined when not. */
    metricsUrl(): string | undefined;
  }
}

/**
 * Prometheus instruments, and the latency of every HTTP request by route pattern. The figures are
 * served on METRICS_PORT (its own listener, started when the app is ready and closed with it), never on the
 * app's port.
 */
export default fp(
  (app, _opts, done) => {
    const metrics = createMetrics();
    app.decorate('metrics', metrics);
    let server: MetricsServer | undefined;
    app.decorate('metricsUrl', () => server?.url);
    const { metricsPort, metricsHost } = app.config;
    if (metricsPort !== undefined) {
      // On ready (awaited by listen and by ready), not on listen (whose hooks are not awaited).
      app.addHook('onReady', async () => {
        server ??= await listenMetrics(metrics.registry, metricsHost, metricsPort);
        app.log.info({ url: server.url }, 'metrics');
      });
      app.addHook('onClose', async () => {
        await server?.close();
      });
    }
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
