import type { FastifyPluginAsync } from 'fastify';

/**
 * Liveness and readiness (metrics: METRICS_PORT). Ready only after the first sync of every informer,
 * and not while the management cluster is unreachable (watches failing past UPSTREAM_DOWN_AFTER):
 * a replica that cannot see the cluster should get no new traffic, and the 503 says why.
 */
const health: FastifyPluginAsync = (app) => {
  app.get('/healthz', { schema: { hide: true } }, () => ({ ok: true }));

  app.get('/readyz', { schema: { hide: true } }, (_request, reply) => {
    const synced = app.cache.hasSynced();
    if (!synced) {
      const pending = app.cache
        .health()
        .filter((h) => !h.hasSynced)
        .map((h) => h.resource);
      return reply.code(503).send({ ready: false, reason: 'NotSynced', pending });
    }
    const upstream = app.upstream.status();
    if (upstream.state === 'disconnected') {
      return reply.code(503).send({
        ready: false,
        reason: 'UpstreamUnavailable',
        message: `the management cluster has been unreachable since ${upstream.since}: ${upstream.reason}`,
        since: upstream.since,
      });
    }
    return { ready: true, watches: app.cache.watchCount };
  });
  return Promise.resolve();
};

export default health;
