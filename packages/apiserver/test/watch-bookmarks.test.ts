/**
 * A watch with allowWatchBookmarks gets a bookmark every bookmarkIntervalMs for as long as it is
 * open, from one timer re-armed after each (before, every bookmark armed a new timer that the
 * watch kept until it ended).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN, W, readWatch, startTestServer, type TestServer } from './support/server';

let t: TestServer | undefined;
afterEach(async () => {
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
});
