import { describe, expect, it, vi } from 'vitest';
import { ClusterStream, FLUSH_MS } from './cluster-stream';

/** Just enough of EventSource for ClusterStream: named listeners and the handlers it sets. */
class FakeEventSource {
  static readonly CLOSED = 2;
  readyState = 1;
  onopen: (() => void) | null = null;
  onmessage: ((msg: MessageEvent<string>) => void) | null = null;
  onerror: (() => void) | null = null;
  readonly #listeners = new Map<string, ((msg: MessageEvent<string>) => void)[]>();
  addEventListener(name: string, listener: (msg: MessageEvent<string>) => void): void {
    this.#listeners.set(name, [...(this.#listeners.get(name) ?? []), listener]);
  }
  emit(name: string, data: unknown): void {
    const msg = { data: JSON.stringify(data) } as MessageEvent<string>;
    for (const l of this.#listeners.get(name) ?? []) l(msg);
  }
  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }
}

function open() {
  const source = new FakeEventSource();
  const stream = new ClusterStream({
    namespace: 'ns',
    cluster: 'c1',
    onBatch: () => undefined,
    eventSource: () => source as unknown as EventSource,
  });
  stream.start();
  source.onopen?.();
  return { stream, source };
}

describe('ClusterStream: the management cluster’s reachability (issue 10 item 4)', () => {
  it('says "disconnected since" from the upstream event, and connected again from a heartbeat', () => {
    const { stream, source } = open();
    expect(stream.status.upstream).toBeUndefined();
    const since = '2026-12-01T10:00:00.000Z';
    source.emit('upstream', {
      type: 'upstream',
      status: { state: 'disconnected', since, reason: 'machines: connect ECONNREFUSED' },
    });
    expect(stream.status).toMatchObject({
      state: 'live',
      upstream: { state: 'disconnected', since, reason: 'machines: connect ECONNREFUSED' },
    });
    source.emit('heartbeat', { at: since, upstream: { state: 'connected' } });
    expect(stream.status.upstream).toEqual({ state: 'connected' });
  });

  it('keeps what it knows when a heartbeat of an older server says nothing about it', () => {
    const { stream, source } = open();
    const down = { state: 'disconnected', since: '2026-12-01T10:00:00.000Z', reason: 'x' };
    source.emit('upstream', { type: 'upstream', status: down });
    source.emit('heartbeat', { at: '2026-12-01T10:00:05.000Z' });
    expect(stream.status.upstream).toEqual(down);
  });
});

describe('ClusterStream: status listeners under a busy stream (issue 14: no long tasks at 200 events/s)', () => {
  it('notifies once per second of messages, not once per message, and at once on a change of state', () => {
    vi.useFakeTimers();
    try {
      const { stream, source } = open();
      let notified = 0;
      stream.subscribe(() => {
        notified++;
      });
      for (let i = 0; i < 200; i++) {
        source.onmessage?.({ data: JSON.stringify({ type: 'resync' }) } as MessageEvent<string>);
        vi.advanceTimersByTime(4);
      }
      expect(notified).toBe(0);
      vi.advanceTimersByTime(200);
      source.onmessage?.({ data: JSON.stringify({ type: 'resync' }) } as MessageEvent<string>);
      expect(notified).toBe(1);
      const down = { state: 'disconnected', since: '2026-12-01T10:00:00.000Z', reason: 'x' };
      source.emit('upstream', { type: 'upstream', status: down });
      expect(notified).toBe(2);
      expect(stream.status.upstream).toEqual(down);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('ClusterStream: when a batch is handed over (issue 28: click to screen)', () => {
  function batching(flushMs?: number) {
    const source = new FakeEventSource();
    const batches: { at: number; size: number }[] = [];
    const stream = new ClusterStream({
      namespace: 'ns',
      cluster: 'c1',
      onBatch: (events) => batches.push({ at: Date.now(), size: events.length }),
      eventSource: () => source as unknown as EventSource,
      ...(flushMs !== undefined ? { flushMs } : {}),
    });
    stream.start();
    source.onopen?.();
    const send = () =>
      source.onmessage?.({ data: JSON.stringify({ type: 'resync' }) } as MessageEvent<string>);
    return { stream, batches, send };
  }

  it('a quiet stream hands its change over on the next task, not after a window', () => {
    vi.useFakeTimers();
    try {
      const { batches, send, stream } = batching();
      const start = Date.now();
      send();
      send(); // the same read of the socket
      vi.advanceTimersByTime(0);
      expect(batches).toEqual([{ at: start, size: 2 }]);
      // Quiet for longer than the window: the next change goes at once too.
      vi.advanceTimersByTime(FLUSH_MS + 1);
      send();
      vi.advanceTimersByTime(0);
      expect(batches.at(-1)).toEqual({ at: start + FLUSH_MS + 1, size: 1 });
      stream.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a busy stream (200 events/s) hands over at most once a window, every event in one of them', () => {
    vi.useFakeTimers();
    try {
      const { batches, send, stream } = batching();
      for (let i = 0; i < 200; i++) {
        send();
        vi.advanceTimersByTime(5);
      }
      vi.advanceTimersByTime(FLUSH_MS);
      expect(batches.reduce((n, b) => n + b.size, 0)).toBe(200);
      const gaps = batches.slice(1).map((b, i) => b.at - (batches[i]?.at ?? 0));
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(FLUSH_MS);
      // 1 s of events: about one batch a window, not one per event.
      expect(batches.length).toBeLessThanOrEqual(1000 / FLUSH_MS + 1);
      stream.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
