import {
  aCluster,
  aDCSMachine,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineSet,
  aMachineTemplate,
  anIpPool,
  aBootstrapTemplate,
} from '@dcs/domain/testing';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeCluster } from '../../test/fakes/fake-source';
import { FakeWriter } from '../../test/fakes/fake-writer';
import { ObjectCache } from '../cache/object-cache';
import type { ModelOptions } from '../views/cluster-model';
import { ModelRegistry } from '../views/model-registry';
import { socketWriter } from './client';
import { StreamHub, type BatchTiming, type HubOptions } from './hub';

const NOW = new Date('2026-01-01T01:00:00Z');

function setup(o: Partial<HubOptions> = {}, model: Partial<ModelOptions> = {}) {
  const fake = new FakeCluster();
  const cache = new ObjectCache(fake.factory, []);
  cache.start();
  fake.put(
    aCluster(),
    aKubeadmControlPlane(),
    aMachineTemplate(),
    aBootstrapTemplate(),
    anIpPool({ entries: 9 }),
  );
  fake.put(aMachineDeployment(), aMachineSet());
  for (let i = 0; i < 3; i++) {
    const name = `demo-md-0-abc12-m${i}`;
    fake.put(aMachine({ metadata: { name } }), aDCSMachine({ metadata: { name } }));
  }
  const registry = new ModelRegistry(cache, {
    context: () => ({ versions: [] }),
    now: () => NOW,
    ...model,
  });
  const hub = new StreamHub(registry, {
    epoch: 'E1',
    heartbeatMs: 20_000,
    replayEvents: 100,
    clientBuffer: 4,
    maxClients: 10,
    minFlushIntervalMs: 0,
    ...o,
  });
  const subscribe = (lastEventId?: string, expiresAt?: number) => {
    const writer = new FakeWriter();
    const client = hub.subscribe({
      namespace: 'cpaas-system',
      cluster: 'demo',
      lastEventId,
      writer,
      expiresAt,
    });
    return { writer, client };
  };
  const touch = (i: number, phase: 'Provisioning' | 'Running' | 'Failed') =>
    fake.put(aMachine({ metadata: { name: `demo-md-0-abc12-m${i}` }, status: { phase } }));
  const settle = () => vi.advanceTimersByTimeAsync(5);
  return { fake, hub, registry, subscribe, touch, settle };
}

describe('StreamHub', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts a new subscriber with resync, then sends changes with ids', async () => {
    vi.useFakeTimers();
    const { subscribe, touch, settle, hub } = setup();
    const { writer } = subscribe();
    expect(writer.data()).toEqual([{ type: 'resync', reason: 'initial' }]);
    touch(1, 'Failed');
    await settle();
    const data = writer.data().slice(1);
    expect(data.map((d) => (d.type === 'resync' ? d.type : `${d.type} ${d.kind} ${d.id}`))).toEqual(
      ['upsert pool demo-md-0', 'upsert machine demo-md-0-abc12-m1'],
    );
    const ids = writer.frames().map((f) => f.id);
    expect(ids.every((id) => id?.startsWith('E1.'))).toBe(true);
    hub.stop();
  });

  it('times each batch for a listener: began, first and last socket write, clients and events (issue 14)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { subscribe, touch, settle, hub } = setup();
    subscribe();
    subscribe();
    const batches: BatchTiming[] = [];
    const off = hub.onBatch((b) => batches.push(b));
    touch(1, 'Failed');
    await settle();
    expect(batches).toHaveLength(1);
    const [b] = batches;
    expect(b).toMatchObject({ room: 'cpaas-system/demo', clients: 2, events: 2 });
    // Wall-clock ms, in order: the flush began, then the writes.
    expect(Math.abs((b?.startedAt ?? 0) - Date.now())).toBeLessThan(60_000);
    expect(b?.startedAt).toBeLessThanOrEqual(b?.firstWriteAt ?? 0);
    expect(b?.firstWriteAt).toBeLessThanOrEqual(b?.lastWriteAt ?? 0);
    off();
    touch(2, 'Failed');
    await settle();
    expect(batches).toHaveLength(1);
    hub.stop();
  });

  it('resumes from Last-Event-ID with what was missed, coalesced by object', async () => {
    vi.useFakeTimers();
    const { subscribe, touch, settle, hub } = setup();
    const first = subscribe();
    touch(1, 'Failed');
    await settle();
    const lastSeen = first.writer.frames().at(-1)?.id;
    first.client?.close();
    touch(2, 'Failed');
    await settle();
    touch(2, 'Provisioning');
    await settle();
    // Nobody watches now: the next subscribe refreshes the model and replays.
    const again = subscribe(lastSeen);
    const data = again.writer.data();
    expect(data.some((d) => d.type === 'resync')).toBe(false);
    expect(
      data.flatMap((d) => (d.type !== 'resync' && d.kind === 'machine' ? [d.id] : [])),
    ).toEqual(['demo-md-0-abc12-m2']);
    hub.stop();
  });

  it('answers resync for an id of another epoch, a gap, or an id it never issued', () => {
    const { subscribe, hub } = setup({ replayEvents: 1 });
    expect(subscribe('OTHER.1-3').writer.data()).toEqual([{ type: 'resync', reason: 'epoch' }]);
    expect(subscribe('E1.1-999').writer.data()).toEqual([{ type: 'resync', reason: 'unknown-id' }]);
    expect(subscribe('garbage').writer.data()).toEqual([{ type: 'resync', reason: 'unknown-id' }]);
    hub.stop();
  });

  it('answers resync when the gap is longer than the replay buffer', async () => {
    vi.useFakeTimers();
    const { subscribe, touch, settle, hub } = setup({ replayEvents: 2 });
    const first = subscribe();
    const start = first.writer.frames().at(-1)?.id;
    for (const [i, phase] of [
      [0, 'Failed'],
      [1, 'Failed'],
      [2, 'Failed'],
    ] as const) {
      touch(i, phase);
      await settle();
    }
    expect(subscribe(start).writer.data()).toEqual([{ type: 'resync', reason: 'gap' }]);
    hub.stop();
  });

  it('sends a heartbeat carrying the last id when the stream is quiet', async () => {
    vi.useFakeTimers();
    const { subscribe, hub } = setup({ heartbeatMs: 300 });
    const { writer } = subscribe();
    await vi.advanceTimersByTimeAsync(400);
    const beats = writer.frames().filter((f) => f.event === 'heartbeat');
    expect(beats.length).toBeGreaterThan(0);
    expect(beats[0]?.id).toBe(writer.frames()[0]?.id);
    hub.stop();
  });

  it('coalesces for a slow client and replaces an overflowing queue by one resync, never a silent gap', async () => {
    vi.useFakeTimers();
    const { subscribe, touch, settle, hub } = setup({ clientBuffer: 3 });
    const slow = subscribe();
    const fast = subscribe();
    slow.writer.full = true;
    touch(0, 'Failed');
    await settle();
    // The first frame went to the socket (which then pushed back); the rest wait.
    touch(0, 'Provisioning');
    await settle();
    touch(0, 'Failed');
    await settle();
    expect(slow.client?.queued).toBeLessThanOrEqual(3);
    expect(slow.client?.coalesced).toBeGreaterThan(0);
    // Three more machines change: the queue overflows.
    touch(1, 'Failed');
    await settle();
    touch(2, 'Failed');
    await settle();
    expect(slow.client?.overflows).toBe(1);
    slow.writer.drain();
    const after = slow.writer.data();
    expect(after.at(-1)).toEqual({ type: 'resync', reason: 'overflow' });
    // The fast client saw every change.
    expect(
      fast.writer.data().filter((d) => d.type !== 'resync' && d.kind === 'machine'),
    ).toHaveLength(5);
    hub.stop();
  });

  it('bounds the bytes held for a socket that never reads: told to resync, then dropped; others unaffected', async () => {
    vi.useFakeTimers();
    const BOUND = 4096;
    const { hub, touch, settle } = setup({
      clientBuffer: 1000,
      clientBufferBytes: BOUND,
      heartbeatMs: 3000,
      stalledAfterMs: 10_000,
    });
    // A socket whose peer reads nothing: its first chunk never completes, the rest pile up.
    const socket = new Writable({ highWaterMark: 256, write: () => undefined });
    const slow = hub.subscribe({
      namespace: 'cpaas-system',
      cluster: 'demo',
      lastEventId: undefined,
      writer: socketWriter(socket),
    });
    const fast = new FakeWriter();
    hub.subscribe({
      namespace: 'cpaas-system',
      cluster: 'demo',
      lastEventId: undefined,
      writer: fast,
    });
    const phases = ['Failed', 'Provisioning', 'Running'] as const;
    const held: number[] = [];
    for (let k = 0; k < 60; k++) {
      touch(k % 3, phases[Math.floor(k / 3) % 3] ?? 'Running');
      await settle();
      held.push(slow?.heldBytes ?? 0);
    }
    // Never more than the bound, and no growth however long it goes on (memory bounded).
    expect(Math.max(...held)).toBeLessThanOrEqual(BOUND);
    expect(held.at(-1)).toBe(held[20]);
    expect(hub.stats().maxHeldBytes).toBeLessThanOrEqual(BOUND);
    // It was told to resync (once: nothing more is queued for it until it reads).
    expect(slow?.overflows).toBe(1);
    // The other tab got every change, in order, and no resync.
    const machines = fast.data().filter((d) => d.type !== 'resync' && d.kind === 'machine');
    expect(machines).toHaveLength(60);
    expect(fast.data().filter((d) => d.type === 'resync')).toHaveLength(1);
    // Reading nothing for longer than stalledAfterMs: dropped, its socket destroyed (released).
    await vi.advanceTimersByTimeAsync(12_000);
    expect(slow?.closed).toBe(true);
    expect(socket.destroyed).toBe(true);
    expect(hub.clients).toBe(1);
    expect(fast.ended).toBe(false);
    hub.stop();
  });

  it('sends a change to a quiet room on the next turn of the event loop, whatever the window (issue 28)', async () => {
    // Real timers: a window of a minute could not have passed; one turn of the loop must do.
    const { subscribe, touch, hub } = setup({ minFlushIntervalMs: 60_000 });
    const { writer } = subscribe();
    const regimes: string[] = [];
    hub.onBatch((b) => regimes.push(b.regime));
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    const machines = () =>
      writer.data().flatMap((d) => (d.type !== 'resync' && d.kind === 'machine' ? [d.id] : []));
    touch(1, 'Failed');
    // Not written in the cache's own call stack: what one socket read of the watch brings goes
    // out together.
    touch(2, 'Failed');
    expect(machines()).toEqual([]);
    const writes = writer.chunks.length;
    await nextTurn();
    expect(machines()).toEqual(['demo-md-0-abc12-m1', 'demo-md-0-abc12-m2']);
    expect(writer.chunks.length - writes).toBe(1);
    expect(regimes).toEqual(['immediate']);
    expect(hub.flushes).toEqual({ immediate: 1, windowed: 0 });
    hub.stop();
  });

  it('batches a burst: changes within the window of the last send wait for its end and go out in one write, the latest view of each object; quiet again, sent at once (issue 28)', async () => {
    vi.useFakeTimers();
    const WINDOW = 50;
    const { subscribe, touch, hub } = setup({ minFlushIntervalMs: WINDOW });
    const { writer } = subscribe();
    const batches: BatchTiming[] = [];
    hub.onBatch((b) => batches.push(b));
    const machines = () =>
      writer
        .data()
        .flatMap((d) =>
          d.type === 'upsert' && d.kind === 'machine' ? [`${d.id} ${d.view.phase}`] : [],
        );
    // The first change of the burst: the room was quiet, sent at once (no time passes).
    touch(0, 'Failed');
    await vi.advanceTimersByTimeAsync(0);
    expect(machines()).toEqual(['demo-md-0-abc12-m0 Failed']);
    // The rest of the burst, within the window: held until its end, then one write.
    const writes = writer.chunks.length;
    await vi.advanceTimersByTimeAsync(10);
    touch(1, 'Failed');
    await vi.advanceTimersByTimeAsync(10);
    touch(2, 'Failed');
    touch(1, 'Provisioning');
    await vi.advanceTimersByTimeAsync(WINDOW - 25);
    expect(machines()).toHaveLength(1);
    expect(writer.chunks.length).toBe(writes);
    await vi.advanceTimersByTimeAsync(10);
    // One refresh for the whole burst: m1 changed twice in the window, its latest view only.
    expect(machines().slice(1)).toEqual([
      'demo-md-0-abc12-m1 Provisioning',
      'demo-md-0-abc12-m2 Failed',
    ]);
    expect(writer.chunks.length - writes).toBe(1);
    expect(batches.map((b) => b.regime)).toEqual(['immediate', 'windowed']);
    // Quiet for a window: the next change is sent at once again.
    await vi.advanceTimersByTimeAsync(WINDOW);
    touch(0, 'Running');
    await vi.advanceTimersByTimeAsync(0);
    expect(machines().at(-1)).toBe('demo-md-0-abc12-m0 Running');
    expect(batches.map((b) => b.regime)).toEqual(['immediate', 'windowed', 'immediate']);
    expect(hub.flushes).toEqual({ immediate: 2, windowed: 1 });
    hub.stop();
  });

  it('spaces refresh-and-sends by what the last one cost, so a large room gets fewer, larger writes (issue 14)', async () => {
    vi.useFakeTimers();
    // Each socket write takes 2 ms of the hub's clock: what thousands of writes cost for real.
    let spent = 0;
    let costly = false;
    const { hub, touch } = setup({
      now: () => Date.now() + spent,
      maxClients: 1000,
      minFlushIntervalMs: 10,
      flushCostRatio: 1,
      maxFlushIntervalMs: 150,
    });
    class CostlyWriter extends FakeWriter {
      override write(chunk: string | Buffer): boolean {
        if (costly) spent += 2;
        return super.write(chunk);
      }
    }
    const writers = Array.from({ length: 20 }, () => new CostlyWriter());
    for (const writer of writers)
      hub.subscribe({ namespace: 'cpaas-system', cluster: 'demo', lastEventId: undefined, writer });
    costly = true;
    const probe = writers[0] ?? new CostlyWriter();
    const machineEvents = () =>
      probe.data().filter((d) => d.type !== 'resync' && d.kind === 'machine').length;
    expect(hub.flushIntervalOf('cpaas-system/demo')).toBe(10);
    touch(1, 'Failed');
    await vi.advanceTimersByTimeAsync(20);
    expect(machineEvents()).toBe(1);
    // 20 writes of 2 ms: that send cost 40 ms, so the next starts 80 ms after it began (not 10).
    expect(hub.flushIntervalOf('cpaas-system/demo')).toBe(80);
    touch(2, 'Failed');
    await vi.advanceTimersByTimeAsync(15);
    expect(machineEvents()).toBe(1);
    await vi.advanceTimersByTimeAsync(10);
    expect(machineEvents()).toBe(2);
    // Never more than the maximum apart, however costly: 100 clients' 200 ms gives 150 ms.
    costly = false;
    for (let i = 0; i < 80; i++)
      hub.subscribe({
        namespace: 'cpaas-system',
        cluster: 'demo',
        lastEventId: undefined,
        writer: new CostlyWriter(),
      });
    costly = true;
    touch(3, 'Failed');
    await vi.advanceTimersByTimeAsync(200);
    expect(hub.flushIntervalOf('cpaas-system/demo')).toBe(150);
    hub.stop();
  });

  it('writes a large room in slices, refreshed before each: a change that arrives mid-pass reaches the clients not yet written, one write per client per pass (issue 14)', async () => {
    vi.useFakeTimers();
    // Each socket write takes 1 ms of the hub's clock: slices end after 63 clients.
    let spent = 0;
    let costly = false;
    const { hub, touch } = setup({
      now: () => Date.now() + spent,
      maxClients: 1000,
      minFlushIntervalMs: 0,
      sliceMs: 16,
    });
    class CostlyWriter extends FakeWriter {
      override write(chunk: string | Buffer): boolean {
        if (costly) spent += 1;
        return super.write(chunk);
      }
    }
    const writers = Array.from({ length: 200 }, () => new CostlyWriter());
    for (const writer of writers)
      hub.subscribe({ namespace: 'cpaas-system', cluster: 'demo', lastEventId: undefined, writer });
    costly = true;
    const before = writers.map((w) => w.chunks.length);
    const batches: BatchTiming[] = [];
    hub.onBatch((b) => {
      batches.push(b);
      // The second change arrives while the first pass is being written (between slices).
      if (batches.length === 1) touch(2, 'Failed');
    });
    touch(1, 'Failed');
    await vi.advanceTimersByTimeAsync(5);
    const machinesOf = (w: FakeWriter) =>
      w.data().flatMap((d) => (d.type !== 'resync' && d.kind === 'machine' ? [d.id] : []));
    const both = ['demo-md-0-abc12-m1', 'demo-md-0-abc12-m2'];
    const firstPass = batches.filter((b) => b.fromSeq === batches[0]?.fromSeq);
    expect(firstPass.map((b) => b.clients)).toEqual([63, 63, 63, 11]);
    // The clients written after the first slice got both changes in that pass, in one write.
    for (const i of [63, 150, 199]) {
      const w = writers[i] ?? new CostlyWriter();
      expect(machinesOf(w)).toEqual(both);
      expect(w.chunks.length - (before[i] ?? 0)).toBe(1);
    }
    // The first slice's clients had the first change only, and the second in the next pass:
    // nothing lost, one write per pass.
    expect(batches.slice(4).map((b) => b.clients)).toEqual([63]);
    const first = writers[0] ?? new CostlyWriter();
    expect(machinesOf(first)).toEqual(both);
    expect(first.chunks.length - (before[0] ?? 0)).toBe(2);
    hub.stop();
  });

  it('closes the stream when the session expires', async () => {
    vi.useFakeTimers();
    const { subscribe, hub } = setup();
    const { writer } = subscribe(undefined, Date.now() + 1000);
    await vi.advanceTimersByTimeAsync(1100);
    expect(writer.ended).toBe(true);
    expect(writer.frames().at(-1)?.event).toBe('expired');
    expect(hub.clients).toBe(0);
    hub.stop();
  });

  it('refuses subscribers beyond the maximum', () => {
    const { subscribe, hub } = setup({ maxClients: 1 });
    expect(subscribe().client).toBeDefined();
    expect(subscribe().client).toBeUndefined();
    hub.stop();
  });

  it('ends every stream with a shutdown event on closeAll (graceful drain)', () => {
    const { subscribe, hub } = setup();
    const a = subscribe();
    hub.closeAll();
    expect(a.writer.ended).toBe(true);
    expect(a.writer.frames().at(-1)?.event).toBe('shutdown');
    hub.stop();
  });

  it('T-1: sends the diagnosis when a machine becomes stuck after stuckAfterMs, with no object changing', async () => {
    vi.useFakeTimers({ now: NOW });
    const stuckAfterMs = 20_000;
    const { fake, subscribe, hub } = setup(
      {},
      {
        context: () => ({ versions: [], diagnosis: { stuckAfterMs } }),
        now: () => new Date(Date.now()),
      },
    );
    const name = 'demo-md-0-abc12-m1';
    fake.put(
      aMachine({
        metadata: { name },
        status: { phase: 'Provisioning', lastUpdated: NOW.toISOString(), nodeRef: undefined },
      }),
      aDCSMachine({ metadata: { name }, status: { vmState: 'creating', ready: false } }),
    );
    const { writer } = subscribe();
    const diagnosisOf = () =>
      writer
        .data()
        .flatMap((d) =>
          d.type === 'upsert' && d.kind === 'machine' && d.id === name
            ? [d.view.diagnosis?.code]
            : [],
        );
    await vi.advanceTimersByTimeAsync(stuckAfterMs - 1_000);
    expect(diagnosisOf()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(diagnosisOf()).toEqual(['placement-stall']);
    hub.stop();
  });
});
