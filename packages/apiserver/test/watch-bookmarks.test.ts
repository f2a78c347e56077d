/**
 * A watch with allowWatchBookmarks gets a bookmark every bookmarkIntervalMs for as long as it is
 * open, from one timer re-armed after each (before, every bookmark armed a new timer that the
 * watch kept until it ended: what a watch held grew with its age).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, W, readWatch, startTestServer, type TestServer } from './support/server';

let t: TestServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.server.close();
  t = undefined;
});

describe('bookmarks', () => {
  it('keep coming on the interval while a watch is open', async () => {
    t = await startTestServer({ bookmarkIntervalMs: 20 });
    const rv = String(t.server.resourceVersion);
    const started = performance.now();
    const { events } = await readWatch(
      `${t.server.url}${W}?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`,
      ADMIN,
      (evs) => evs.length >= 6,
      10_000,
    );
    const types = events.map((e: { type: string }) => e.type);
    expect(types).toEqual(Array.from({ length: 6 }, () => 'BOOKMARK'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(6 * 20 - 5);
  });

  it('come from one timer however many a watch sends', async () => {
    // An interval no other timer of the server uses, so that its timers can be told apart.
    const interval = 23;
    t = await startTestServer({ bookmarkIntervalMs: interval });
    const armed = vi.spyOn(globalThis, 'setTimeout');
    const rv = String(t.server.resourceVersion);
    const { events } = await readWatch(
      `${t.server.url}${W}?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`,
      ADMIN,
      (evs) => evs.length >= 8,
      10_000,
    );
    expect(events).toHaveLength(8);
    const bookmarkTimers = armed.mock.calls.filter(([, ms]) => ms === interval);
    expect(bookmarkTimers).toHaveLength(1);
  });
});
