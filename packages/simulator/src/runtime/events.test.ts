import { describe, expect, it } from 'vitest';
import { createClock } from '../logic/clock';
import type { KubeClient, KubeObject } from './client';
import { EventRecorder, SPAM_BURST, SPAM_REFILL_MS } from './events';

/** A client that records the Events written (POST) and bumped (PATCH). */
function recorder() {
  const writes: { verb: string; object: string }[] = [];
  const client = {
    createAndForget: (_: unknown, e: { involvedObject: { name: string } }) => {
      writes.push({ verb: 'POST', object: e.involvedObject.name });
      return Promise.resolve();
    },
    patch: (_: unknown, _ns: string, name: string) => {
      writes.push({ verb: 'PATCH', object: name });
      return Promise.resolve({});
    },
  } as unknown as KubeClient;
  const clock = createClock({ timeScale: 0 });
  return { writes, clock, events: new EventRecorder(client, clock) };
}

const object = (name: string): KubeObject => ({
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'MachineSet',
  metadata: { name, namespace: 'ns', uid: `uid-${name}` },
});

describe('event recorder', () => {
  it("client-go's spam filter: 25 Events per source and object, then one per 5 minutes; other objects unaffected", async () => {
    const { writes, clock, events } = recorder();
    const set = object('set-a');
    for (let i = 0; i < 100; i++)
      events.emit(set, 'Normal', 'SuccessfulCreate', `Created machine "m-${String(i)}"`, 'ms');
    events.emit(object('set-b'), 'Normal', 'SuccessfulCreate', 'Created machine "x"', 'ms');
    await events.flush();
    expect(writes.filter((w) => w.object === 'set-a')).toHaveLength(SPAM_BURST);
    expect(writes.filter((w) => w.object === 'set-b')).toHaveLength(1);
    expect(events.counters).toMatchObject({ emitted: 101, filtered: 100 - SPAM_BURST });

    // The bucket refills in simulated time: one more Event per 5 minutes, not a burst.
    await clock.advance(SPAM_REFILL_MS);
    events.emit(set, 'Normal', 'SuccessfulCreate', 'Created machine "late-1"', 'ms');
    events.emit(set, 'Normal', 'SuccessfulCreate', 'Created machine "late-2"', 'ms');
    await events.flush();
    expect(writes.filter((w) => w.object === 'set-a')).toHaveLength(SPAM_BURST + 1);
    events.stop();
  });

  it('a repeat of the same Event within ten minutes bumps its count (PATCH), and counts against the same bucket', async () => {
    const { writes, events } = recorder();
    const set = object('set-c');
    for (let i = 0; i < 30; i++) events.emit(set, 'Warning', 'Failed', 'same message', 'ms');
    await events.flush();
    expect(writes.filter((w) => w.verb === 'POST')).toHaveLength(1);
    expect(writes.filter((w) => w.verb === 'PATCH')).toHaveLength(SPAM_BURST - 1);
    events.stop();
  });
});
