import type { FastifyPluginAsync } from 'fastify';

/** Liveness and readiness (only after the first sync of every informer); metrics: METRICS_PORT. */
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
  return Promise.resolve();
};

export default health;
