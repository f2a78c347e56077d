import { describe, expect, it, vi } from 'vitest';
import { record, startInformer, startServer } from './support/harness';

describe('Informer: resuming after a disconnect', () => {
  it('resumes from a bookmark’s resourceVersion after the connection drops', async () => {
    const server = await startServer();
    server.add('a');
    const informer = startInformer(server);
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    expect(server.watchRequests()[0]?.query.get('resourceVersion')).toBe('rv-2');

    server.advance(); // other kinds changed: only a bookmark tells us
    const bookmarked = server.bookmark();
    await expect.poll(() => informer.resourceVersion).toBe(bookmarked);
    expect(informer.metrics().lastBookmarkAt).toBeGreaterThan(0);

    server.dropWatches();
    await expect.poll(() => server.watchRequests()).toHaveLength(2);
    expect(server.watchRequests()[1]?.query.get('resourceVersion')).toBe(bookmarked);
    expect(server.listRequests()).toHaveLength(1); // resumed, not relisted
  });

  it('resumes from the last event and replays what it missed while disconnected', async () => {
    const server = await startServer();
    const onError = vi.fn();
    const informer = startInformer(server, { onError });
    const log = record(informer);
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    server.add('a');
    await expect.poll(() => informer.resourceVersion).toBe('rv-2');

    server.dropWatches();
    server.add('b'); // while nobody is connected
    server.update('a', { x: 1 });
    await expect
      .poll(() => log)
      .toEqual(['add a@rv-2', 'add b@rv-3', 'update a@rv-4 (was a@rv-2)']);
    expect(server.watchRequests()[1]?.query.get('resourceVersion')).toBe('rv-2');
    // A cut connection is an error (with backoff), unlike a clean end.
    expect(onError).toHaveBeenCalledWith(
      expect.any(Error),
      expect.objectContaining({ phase: 'watch' }),
    );
    expect(informer.metrics()).toMatchObject({ relists: 0, restarts: 1 });
  });

  it('survives a server restart on the same port and converges on what changed meanwhile', async () => {
    const server = await startServer();
    server.add('a');
    server.add('b');
    const informer = startInformer(server, { backoff: { initialMs: 20, maxMs: 100, jitter: 0 } });
    const log = record(informer);
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);

    await server.restart(300, () => {
      server.remove('a');
      server.add('c');
    });
    await expect
      .poll(() =>
        informer
          .list()
          .map((o) => o.metadata?.name)
          .sort(),
      )
      .toEqual(['b', 'c']);
    expect(log.slice(2)).toEqual(['delete a@rv-4 (was a@rv-2)', 'add c@rv-5']);
    const m = informer.metrics();
    expect(m.errors).toBeGreaterThanOrEqual(1); // connection refused while it was down
    expect(m.relists).toBe(0);
  });

  it('survives a restart that lost the history: 410, then relist with deletions', async () => {
    const server = await startServer();
    server.add('a');
    server.add('b');
    const informer = startInformer(server);
    const log = record(informer);
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);

    await server.restart(100, () => {
      server.remove('a');
      server.update('b', { x: 1 });
      server.compact();
    });
    await expect.poll(() => informer.metrics().relists).toBe(1);
    expect(log.slice(2)).toEqual([
      'delete a@rv-2 (was a@rv-2) final state unknown',
      'update b@rv-5 (was b@rv-3)',
    ]);
  });

  it('resumes quietly when the server ends the stream cleanly (timeoutSeconds ran out)', async () => {
    const server = await startServer();
    const onError = vi.fn();
    const informer = startInformer(server, { onError, watchTimeoutSeconds: { min: 1, max: 1 } });
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    expect(server.watchRequests()[0]?.query.get('timeoutSeconds')).toBe('1');
    server.add('a');
    await expect.poll(() => server.watchRequests().length, { timeout: 5_000 }).toBe(2);
    expect(server.watchRequests()[1]?.query.get('resourceVersion')).toBe('rv-2');
    expect(onError).not.toHaveBeenCalled();
    expect(informer.metrics()).toMatchObject({ errors: 0, restarts: 1, relists: 0 });
  });

  it('treats a stream closed at once without any event as an error, so it cannot spin', async () => {
    const server = await startServer();
    const onError = vi.fn();
    const informer = startInformer(server, { onError });
    await informer.synced;
    server.scriptWatch({ kind: 'end-at-once' });
    server.endWatches();
    await expect.poll(() => onError.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(String(onError.mock.calls[0]?.[0])).toMatch(/without any event/);
    await expect.poll(() => server.openWatches).toBe(1);
  });
});

describe('Informer: a relist on request', () => {
  it('relists at once on retryNow({ relist: true }), diffing with the cache, and watches on', async () => {
    const server = await startServer();
    server.add('a');
    server.add('b');
    const reasons: string[] = [];
    const informer = startInformer(server, {
      onRelist: (info) => reasons.push(info.reason),
      // The cut below puts it in a long backoff: only retryNow() brings it back in time.
      backoff: { initialMs: 60_000, maxMs: 60_000, jitter: 0 },
    });
    const log = record(informer);
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    const lists = server.listRequests().length;

    // Changes the watch never tells of (as from a server re-created without its state, which
    // may accept an old resourceVersion and wait): only a LIST can find them.
    await server.restart(0, () => {
      server.remove('a');
      server.compact();
    });
    await expect.poll(() => informer.metrics().state).toBe('backoff');
    informer.retryNow({ relist: true });
    await expect.poll(() => informer.metrics().relists).toBe(1);
    expect(server.listRequests().length).toBe(lists + 1);
    expect(reasons).toEqual(['initial', 'requested']);
    expect(log.slice(2)).toEqual(['delete a@rv-2 (was a@rv-2) final state unknown']);
    await expect.poll(() => server.openWatches).toBe(1);
    server.add('c');
    await expect.poll(() => informer.get('default', 'c')).toBeDefined();
  });
});
