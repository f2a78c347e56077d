import { describe, expect, it } from 'vitest';
import { createClock } from '../logic/clock';
import { batchRealMs } from './manager';
import { WorkQueue } from './queue';

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

function queueOf(o: {
  batchMs?: number;
  isPriority?: (key: string) => boolean;
  concurrency?: number;
  deferStart?: boolean;
}) {
  const runs: { key: string; at: number }[] = [];
  const t0 = Date.now();
  const queue = new WorkQueue(
    'test',
    (key) => {
      runs.push({ key, at: Date.now() - t0 });
      return Promise.resolve(undefined);
    },
    {
      concurrency: o.concurrency ?? 1,
      clock: createClock({ timeScale: 0 }),
      onError: () => undefined,
      ...(o.batchMs ? { batchMs: o.batchMs } : {}),
      ...(o.isPriority ? { isPriority: o.isPriority } : {}),
      ...(o.deferStart ? { deferStart: true } : {}),
    },
  );
  return { queue, runs };
}

describe('work queue', () => {
  it('deferStart (WaitForCacheSync): keys wait until start(), then run once each, oldest first', async () => {
    const { queue, runs } = queueOf({ deferStart: true });
    queue.add('ns/a');
    queue.add('ns/b');
    queue.add('ns/a');
    await settle(20);
    expect(runs).toEqual([]);
    queue.start();
    await queue.idle();
    expect(runs.map((r) => r.key)).toEqual(['ns/a', 'ns/b']);
  });

  it('batchMs: a lone change is reconciled at once, a burst within the window makes one more reconcile', async () => {
    const { queue, runs } = queueOf({ batchMs: 200 });
    queue.add('ns/pool');
    expect(runs.map((r) => r.key)).toEqual(['ns/pool']);
    await queue.idle();
    for (let i = 0; i < 50; i++) queue.add('ns/pool');
    expect(runs).toHaveLength(1);
    await settle(300);
    await queue.idle();
    expect(runs).toHaveLength(2);
    expect(runs[1]?.at).toBeGreaterThanOrEqual(190);
    // Long after the last run, a change is reconciled at once again.
    await settle(250);
    queue.add('ns/pool');
    expect(runs).toHaveLength(3);
    queue.stop();
  });

  it('priority keys are served before the others', async () => {
    const { queue, runs } = queueOf({ isPriority: (k) => k.startsWith('cp/') });
    queue.add('w/block');
    for (let i = 0; i < 3; i++) queue.add(`w/${String(i)}`);
    queue.add('cp/0');
    await queue.idle();
    expect(runs.map((r) => r.key)).toEqual(['w/block', 'cp/0', 'w/0', 'w/1', 'w/2']);
    queue.stop();
  });

  it('waiting keys are served oldest first (first seen), not in the order they were added', async () => {
    const { queue, runs } = queueOf({});
    queue.add('w/block');
    for (let i = 0; i < 3; i++) queue.add(`w/${String(i)}`);
    await queue.idle();
    runs.length = 0;
    // Re-added newest first: the oldest key still runs first.
    queue.add('w/block');
    queue.add('w/2');
    queue.add('w/1');
    queue.add('w/0');
    await queue.idle();
    expect(runs.map((r) => r.key)).toEqual(['w/block', 'w/0', 'w/1', 'w/2']);
    // A forgotten key (its object deleted) counts as new when it comes back.
    runs.length = 0;
    queue.forget('w/0');
    queue.add('w/block');
    queue.add('w/0');
    queue.add('w/1');
    await queue.idle();
    expect(runs.map((r) => r.key)).toEqual(['w/block', 'w/1', 'w/0']);
    queue.stop();
  });

  it('a key queued before it was known as a priority key moves ahead once it is', async () => {
    const priority = new Set<string>();
    const { queue, runs } = queueOf({ isPriority: (k) => priority.has(k) });
    queue.add('w/block');
    for (let i = 0; i < 3; i++) queue.add(`w/${String(i)}`);
    queue.add('cp/0'); // its KubeadmConfig's change, before the Machine exists
    priority.add('cp/0');
    queue.add('cp/0'); // the Machine's own add
    await queue.idle();
    expect(runs.map((r) => r.key)).toEqual(['w/block', 'cp/0', 'w/0', 'w/1', 'w/2']);
    expect(queue.length).toBe(0);
    queue.stop();
  });

  it('a batch window is simulated time: none on a manual clock, capped in real time', () => {
    expect(batchRealMs(15_000, 60)).toBe(250);
    expect(batchRealMs(15_000, 1000)).toBe(15);
    expect(batchRealMs(15_000, 0)).toBe(0);
    expect(batchRealMs(15_000, 1)).toBe(250);
  });
});
