import fp from 'fastify-plugin';
import { newEpoch } from '../../stream/event-id';
import { StreamHub } from '../../stream/hub';

declare module 'fastify' {
  interface FastifyInstance {
    hub: StreamHub;
    /** This process's event-id epoch (ids from another replica or process get `resync`). */
    epoch: string;
  }
}

export default fp<{ epoch?: string }>(
  (app, opts, done) => {
    const epoch = opts.epoch ?? newEpoch();
    const { sse } = app.config;
    const hub = new StreamHub(
      app.views,
      {
        epoch,
        heartbeatMs: sse.heartbeatMs,
        replayEvents: sse.replayEvents,
        clientBuffer: sse.clientBuffer,
        clientBufferBytes: sse.clientBufferBytes,
        maxClients: sse.maxClients,
        minFlushIntervalMs: sse.batchMs,
      },
      {
        onEvents: (n) => {
          app.metrics.sseEvents.inc(n);
        },
        onFlush: (regime) => {
          app.metrics.sseFlushes.inc({ regime });
        },
        onResync: (reason) => {
          app.metrics.sseResyncs.inc({ reason });
        },
        onClientsChanged: (n) => {
          app.metrics.sseClients.set(n);
        },
      },
    );
    app.decorate('hub', hub);
    const offUpstream = app.upstream.onChange((status) => {
      hub.setUpstream(status);
    });
    const offRevoked = app.revocations.onRevoked((sid) => {
      hub.endSession(sid);
    });
    app.decorate('epoch', epoch);
    // Graceful shutdown drains streams first: each gets a `shutdown` event and ends, so that
    // EventSource reconnects (to another replica) instead of hanging on a closing server.
    app.addHook('preClose', (done2) => {
      hub.closeAll();
      done2();
    });
    app.addHook('onClose', (_app, done2) => {
      offUpstream();
      offRevoked();
      hub.stop();
      done2();
    });
    done();
  },
  { name: 'hub', dependencies: ['config', 'metrics', 'cache', 'revocations'] },
);
