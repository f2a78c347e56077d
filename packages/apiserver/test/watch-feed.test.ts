/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- watch events are arbitrary JSON from the wire */
/**
 * The plain watches of one kind and namespace share one feed (`WatchFeed` in src/http/watch.ts):
 * an event's line is gathered once for all of them, not once per watcher (issue 14). What each
 * watch receives must not change: exactly the events after the resourceVersion it started from,
 * in order, its bookmarks in resourceVersion order among them, whenever it joined or wrote a
 * line of its own between two flushes; and watchCount counts streams, not feeds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN, W, readWatch, startTestServer, widget, type TestServer } from './support/server';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.server.close();
  t = undefined;
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The resourceVersions of a watch's events (bookmarks included), in the order received. */
const rvs = (events: { object: { metadata: { resourceVersion: string } } }[]) =>
  events.map((e) => Number(e.object.metadata.resourceVersion));

describe('watches sharing a feed', () => {
  it('each get exactly the events after their resourceVersion, in order, with bookmarks in order, whenever they join', async () => {
    // Bookmarks every few milliseconds and a flush interval longer than the gap between patches:
    // watches join, and write bookmarks, while a flush's lines are gathering.
    t = await startTestServer({ bookmarkIntervalMs: 7, watchFlushIntervalMs: 25 });
    const server = t.server;
    const created = await server.client.create(widget('w'));
    const committed: number[] = [];
    const patches = 120;
    const base = server.watchCount();
    const watches: Promise<{ from: number; events: any[] }>[] = [];
    const open = (from: number, bookmarks: boolean) => {
      const url = `${server.url}${W}?watch=1&resourceVersion=${String(from)}${bookmarks ? '&allowWatchBookmarks=true' : ''}`;
      watches.push(
        readWatch(
          url,
          ADMIN,
          (evs) =>
            evs.filter((e) => e.type === 'MODIFIED').length >= patches - committed.indexOf(from),
          30_000,
        ).then((r) => ({ from, events: r.events })),
      );
    };
    committed.push(Number(created.metadata.resourceVersion));
    open(committed[0] ?? 0, true);
    for (let i = 0; i < patches; i++) {
      const p = await server.client.patch(
        { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', namespace: 'default' },
        'merge',
        { metadata: { annotations: { n: String(i) } } },
      );
      committed.push(Number(p.metadata.resourceVersion));
      // New watches from the version just committed, its line still waiting for the flush.
      if (i % 20 === 10) open(committed.at(-1) ?? 0, i % 40 === 10);
      if (i === 60) expect(server.watchCount()).toBeGreaterThan(base);
      await pause(i % 3 === 0 ? 4 : 0);
    }
    const got = await Promise.all(watches);
    expect(got).toHaveLength(7);
    for (const { from, events } of got) {
      const modified = events.filter((e) => e.type === 'MODIFIED');
      expect(rvs(modified)).toEqual(committed.filter((rv) => rv > from));
      // Bookmarks carry the latest resourceVersion when written: never behind an event before them.
      const all = rvs(events.filter((e) => e.type === 'MODIFIED' || e.type === 'BOOKMARK'));
      expect(all).toEqual([...all].sort((a, b) => a - b));
    }
    expect(got.some(({ events }) => events.some((e) => e.type === 'BOOKMARK'))).toBe(true);
  }, 60_000);

  it('count as one watch each while open, and none once ended', async () => {
    t = await startTestServer();
    const server = t.server;
    await server.client.create(widget('c'));
    const base = server.watchCount();
    const rv = String(server.resourceVersion);
    const reads = [1, 2, 3].map(() =>
      readWatch(
        `${server.url}${W}?watch=1&resourceVersion=${rv}`,
        ADMIN,
        (evs) => evs.length >= 1,
        10_000,
      ),
    );
    await expect.poll(() => server.watchCount(), { timeout: 10_000 }).toBe(base + 3);
    await server.client.patch(
      { apiVersion: 'example.com/v1', kind: 'Widget', name: 'c', namespace: 'default' },
      'merge',
      { spec: { color: 'blue' } },
    );
    for (const r of await Promise.all(reads)) expect(r.events[0]?.type).toBe('MODIFIED');
    await expect.poll(() => server.watchCount(), { timeout: 10_000 }).toBe(base);
  }, 30_000);
});
