import { describe, expect, it, vi } from 'vitest';
import { ClusterStream } from './cluster-stream';

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
