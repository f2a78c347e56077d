/**
 * A watch whose client stops reading is ended once more than `watchMaxBufferedBytes` wait for it
 * (in the server and in its socket), and not before; the other watchers of the kind get every
 * event meanwhile. The check per event reads the socket's backlog as of the last flush (issue 14:
 * the exact getter per event per watcher cost 2.5% of a fan-out), so this pins that the cut-off
 * still happens, at the limit.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN, W, readWatch, startTestServer, widget, type TestServer } from './support/server';

const LIMIT = 512 * 1024;
const PIECE = 50 * 1024;

let t: TestServer | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await t?.server.close();
  t = undefined;
});

/** A watch that sends its request and then never reads (its socket is paused from the start). */
async function stalledWatch(port: number, resourceVersion: string): Promise<Socket> {
  const s = connect({ host: '127.0.0.1', port });
  sockets.push(s);
  s.pause();
  await new Promise<void>((resolve, reject) => {
    s.once('connect', resolve);
    s.once('error', reject);
  });
  s.write(
    `GET ${W}?watch=1&resourceVersion=${resourceVersion} HTTP/1.1\r\nHost: t\r\n` +
      `Authorization: Bearer ${ADMIN}\r\n\r\n`,
  );
  return s;
}

/** Reads a paused socket from now on until its chunked response ends (or the socket does). */
function readToEnd(s: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const done = () => {
      s.off('data', onData);
      resolve(text);
    };
    const onData = (b: Buffer) => {
      text += b.toString('latin1');
      if (text.endsWith('\r\n0\r\n\r\n')) done();
    };
    s.on('data', onData);
    s.once('end', done);
    s.once('close', done);
    s.resume();
  });
}

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Patches the widget's annotation with `PIECE` fresh bytes, so every event is ~PIECE long. */
function patchBig(i: number) {
  return t?.server.client.patch(
    { apiVersion: 'example.com/v1', kind: 'Widget', name: 'big', namespace: 'default' },
    'merge',
    { metadata: { annotations: { big: String(i % 10).repeat(PIECE) } } },
  );
}

describe('a watch whose client does not read', () => {
  it('is ended past watchMaxBufferedBytes while a reading watcher gets every event', async () => {
    t = await startTestServer({ watchMaxBufferedBytes: LIMIT });
    const created = await t.server.client.create(widget('big'));
    const rv = created.metadata.resourceVersion ?? '';
    const base = t.server.watchCount();
    const stalled = await stalledWatch(t.server.port, rv);
    const events = 200;
    const reading = readWatch(
      `${t.server.url}${W}?watch=1&resourceVersion=${rv}`,
      ADMIN,
      (evs) => evs.length >= events,
      60_000,
    );
    await until(() => t?.server.watchCount() === base + 2, 'both watches to open');

    // 200 x 50 KiB = 10 MiB: more than loopback's socket buffers and the limit together.
    let endedAfter = -1;
    for (let i = 0; i < events; i++) {
      await patchBig(i);
      // Let the flusher write (it runs at most every 10 ms).
      if (i % 5 === 4) await new Promise((r) => setTimeout(r, 15));
      if (endedAfter < 0 && t.server.watchCount() === base + 1) endedAfter = i + 1;
    }
    const got = await reading;
    expect(got.events).toHaveLength(events);
    expect(got.events.every((e: { type: string }) => e.type === 'MODIFIED')).toBe(true);
    // The stalled watch ended while the reading one was still open (it needs the last event).
    expect(endedAfter).toBeGreaterThan(0);
    expect(endedAfter).toBeLessThan(events);
    // Ended only once more than the limit was written: the kernel takes some, the rest waits.
    expect(endedAfter * PIECE).toBeGreaterThan(LIMIT);
    // Its client, reading at last, finds a stream that ended cleanly, short of every event.
    const tail = await readToEnd(stalled);
    expect(tail.endsWith('\r\n0\r\n\r\n')).toBe(true);
    expect(tail.split('"type":"MODIFIED"').length - 1).toBeLessThan(events);
  }, 90_000);

  it('is kept while what waits for it stays under the limit', async () => {
    t = await startTestServer({ watchMaxBufferedBytes: LIMIT });
    const created = await t.server.client.create(widget('big'));
    const base = t.server.watchCount();
    await stalledWatch(t.server.port, created.metadata.resourceVersion ?? '');
    await until(() => t?.server.watchCount() === base + 1, 'the watch to open');
    // 8 x 50 KiB = 400 KiB in one flush (no pause between the patches), under the 512 KiB limit
    // even if none of it left the server.
    for (let i = 0; i < 8; i++) await patchBig(i);
    await new Promise((r) => setTimeout(r, 200));
    expect(t.server.watchCount()).toBe(base + 1);
  }, 60_000);
});
