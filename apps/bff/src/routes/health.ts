import type { FastifyPluginAsync } from 'fastify';

/** Liveness, readiness (only after the first sync of every informer) and Prometheus metrics. */
const health: FastifyPluginAsync = (app) => {
  app.get('/healthz', { schema: { hide: true } }, () => ({ ok: true }));

  app.get('/readyz', { schema: { hide: true } }, (_request, reply) => {
    const synced = app.cache.hasSynced();
    if (!synced) {
      const pending = app.cache
        .health()
        .filter((h) => !h.hasSynced)
        .map((h) => h.resource);
      return reply.code(503).send({ ready: false, pending });
    }
    return { ready: true, watches: app.cache.watchCount };
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const text = await app.metrics.registry.metrics();
    return reply.type(app.metrics.registry.contentType).send(text);
  });
  return Promise.resolve();
};

export default health;
