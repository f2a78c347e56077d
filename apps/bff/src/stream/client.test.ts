import { describe, expect, it } from 'vitest';
import { FakeWriter } from '../../test/fakes/fake-writer';
import { SseClient } from './client';
import { frameOf, type LoggedEvent } from './events';

const event = (seq: number, key: string): LoggedEvent => {
  const id = `E-${String(seq)}`;
  return { seq, id, key, frame: frameOf(id, { type: 'delete', kind: 'machine', id: key }) };
};
const resync = () => ({ id: 'E-0', frame: frameOf('E-0', { type: 'resync', reason: 'overflow' }) });

describe('SseClient', () => {
  it('sends what waited for a full socket in one write once it drains, coalesced by object (issue 14)', () => {
    const writer = new FakeWriter();
    const client = new SseClient(1, writer, { events: 100, bytes: 1 << 20 }, 'E-0', 0);
    writer.full = true;
    client.send(event(1, 'a'), resync);
    expect(client.blocked).toBe(true);
    client.send(event(2, 'b'), resync);
    client.send(event(3, 'c'), resync);
    client.send(event(4, 'b'), resync);
    const before = writer.chunks.length;
    writer.drain();
    // One write carrying b's newest frame after c's (the queue's order), and the last id.
    expect(writer.chunks.length - before).toBe(1);
    expect(
      writer
        .frames()
        .slice(1)
        .map((f) => f.id),
    ).toEqual(['E-3', 'E-4']);
    expect(client.lastId).toBe('E-4');
    expect(client.queued).toBe(0);
    expect(client.heldBytes).toBe(0);
  });

  it('sends nothing a written resync already covers: events up to its position are dropped (issue 14)', () => {
    const writer = new FakeWriter();
    const client = new SseClient(1, writer, { events: 100, bytes: 1 << 20 }, 'E-0', 0);
    client.resync(() => ({
      id: 'E-5',
      seq: 5,
      frame: frameOf('E-5', { type: 'resync', reason: 'overflow' }),
    }));
    const frame = (e: LoggedEvent) => Buffer.from(e.frame);
    const covered = [event(4, 'a'), event(5, 'b')];
    client.sendBatch(covered, Buffer.concat(covered.map(frame)), resync);
    client.send(event(3, 'c'), resync);
    const mixed = [event(5, 'b'), event(6, 'd')];
    client.sendBatch(mixed, Buffer.concat(mixed.map(frame)), resync);
    expect(writer.frames().map((f) => f.id)).toEqual(['E-5', 'E-6']);
    expect(client.lastId).toBe('E-6');
  });
});
