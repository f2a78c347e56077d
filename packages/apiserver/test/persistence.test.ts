import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startApiServer } from '../src/index';
import { testKinds } from './support/kinds';

const CHILD = join(import.meta.dirname, 'support', 'child-server.ts');

const children: ChildProcess[] = [];

function startChild(state: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    // node itself (not the tsx wrapper) so that SIGKILL hits the process that holds the file.
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, state], {
      cwd: join(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /URL (\S+)/.exec(out);
      if (m?.[1]) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => {
      reject(new Error(`child exited with ${String(code)}`));
    });
  });
}

afterEach(() => {
  for (const c of children) c.kill('SIGKILL');
  children.length = 0;
});

function cm(name: string, n: number) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { n: String(n) } };
}

describe('persistence', () => {
  it('makes the state file’s folder when it does not exist yet (a README command, issue 13)', async () => {
    const state = join(
      mkdtempSync(join(tmpdir(), 'apiserver-state-')),
      'new',
      'dir',
      'state.jsonl',
    );
    const a = await startApiServer({ tls: false, kinds: testKinds, statePath: state });
    await a.client.create(cm('one', 1));
    await a.close();
    expect(existsSync(state)).toBe(true);
  });

  it('loads an events.k8s.io Event kept apart by an older version into the one Event resource (issue 12)', async () => {
    const state = join(mkdtempSync(join(tmpdir(), 'apiserver-state-')), 'state.jsonl');
    const old = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'audit-1', namespace: 'default', uid: 'u-audit-1', resourceVersion: '41' },
      eventTime: '2026-01-01T10:02:00.000000Z',
      reportingController: 'dcs.io/node-pool-console',
      reportingInstance: 'bff-0',
      action: 'O-SCALE-UP',
      reason: 'Applied',
      type: 'Normal',
      regarding: { kind: 'MachineDeployment', name: 'md-1', namespace: 'default' },
      note: 'alice scaled md-1 4 → 6',
    };
    writeFileSync(
      state,
      `${JSON.stringify({ v: 1, rv: 41 })}\n${JSON.stringify({ t: 'P', rv: 41, r: 'events.k8s.io/events', o: old })}\n`,
    );
    const a = await startApiServer({ tls: false, kinds: testKinds, statePath: state });
    const ref = { kind: 'Event', namespace: 'default', name: 'audit-1' };
    expect(a.client.get({ ...ref, apiVersion: 'v1' })).toMatchObject({
      metadata: { uid: 'u-audit-1', resourceVersion: '41' },
      involvedObject: { name: 'md-1' },
      message: 'alice scaled md-1 4 → 6',
      reportingComponent: 'dcs.io/node-pool-console',
    });
    expect(a.client.get({ ...ref, apiVersion: 'events.k8s.io/v1' })).toMatchObject({
      note: 'alice scaled md-1 4 → 6',
    });
    expect(a.client.list('v1', 'Event', 'default')).toHaveLength(1);
    expect(a.client.list('events.k8s.io/v1', 'Event', 'default')).toHaveLength(1);
    await a.close();
  });

  it(
    'restarts from the state file with every object and without resourceVersions going back',
    { timeout: 30_000 },
    async () => {
      const state = join(mkdtempSync(join(tmpdir(), 'apiserver-state-')), 'state.jsonl');
      const a = await startApiServer({ tls: false, kinds: testKinds, statePath: state });
      await a.client.create(cm('one', 1));
      await a.client.create(cm('two', 2));
      await a.client.delete({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'default',
        name: 'two',
      });
      await a.client.patch(
        { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'one' },
        'merge',
        { data: { n: '11' } },
      );
      const rv = a.resourceVersion;
      await a.close();
      const b = await startApiServer({ tls: false, kinds: testKinds, statePath: state });
      expect(
        b.client.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'one' })
          ?.data,
      ).toEqual({ n: '11' });
      expect(
        b.client.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'two' }),
      ).toBeUndefined();
      expect(b.resourceVersion).toBeGreaterThan(rv);
      const created = await b.client.create(cm('three', 3));
      expect(Number(created.metadata.resourceVersion)).toBeGreaterThan(rv);
      await b.close();
    },
  );

  it(
    'loses no acknowledged write when the process is killed with SIGKILL during writes',
    { timeout: 60_000 },
    async () => {
      const state = join(mkdtempSync(join(tmpdir(), 'apiserver-kill-')), 'state.jsonl');
      const first = await startChild(state);
      const headers = { authorization: 'Bearer admin', 'content-type': 'application/json' };
      const acked: string[] = [];
      let lastRv = 0;
      // 16 writers keep writing (the group commit batches them); a write counts once answered.
      const writers = Array.from({ length: 16 }, async (_, w) => {
        for (let i = 0; ; i++) {
          try {
            const res = await fetch(`${first.url}/api/v1/namespaces/default/configmaps`, {
              method: 'POST',
              headers,
              body: JSON.stringify(cm(`w${w}-${i}`, i)),
              signal: AbortSignal.timeout(5000),
            });
            if (res.status !== 201) return;
            const body = (await res.json()) as { metadata: { resourceVersion: string } };
            lastRv = Math.max(lastRv, Number(body.metadata.resourceVersion));
            acked.push(`w${w}-${i}`);
          } catch {
            return; // killed: this write was never acknowledged
          }
        }
      });
      // Killed mid-stream: once 300 writes are acknowledged, with 16 more in flight.
      for (const deadline = Date.now() + 30_000; acked.length < 300 && Date.now() < deadline;)
        await new Promise((r) => setTimeout(r, 5));
      first.child.kill('SIGKILL');
      await Promise.all(writers);
      await new Promise((r) => {
        if (first.child.exitCode === null && first.child.signalCode === null)
          first.child.once('exit', r);
        else r(0);
      });

      // The dead process's lock is stale: the restart takes it over.
      const second = await startChild(state);
      const list = (await (
        await fetch(`${second.url}/api/v1/namespaces/default/configmaps`, { headers })
      ).json()) as {
        metadata: { resourceVersion: string };
        items: { metadata: { name: string } }[];
      };
      const names = new Set(list.items.map((i) => i.metadata.name));
      const lost = acked.filter((n) => !names.has(n));
      console.log(`kill -9 during writes: ${acked.length} acknowledged, ${lost.length} lost`);
      expect(acked.length).toBeGreaterThanOrEqual(300);
      expect(lost).toEqual([]);
      expect(Number(list.metadata.resourceVersion)).toBeGreaterThan(lastRv);
    },
  );

  it('refuses a second server on the same state file while the first runs', async () => {
    const state = join(mkdtempSync(join(tmpdir(), 'apiserver-lock-')), 'state.jsonl');
    const first = await startChild(state);
    const second = spawn(process.execPath, ['--import', 'tsx', CHILD, state], {
      cwd: join(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(second);
    let stderr = '';
    second.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise((r) => second.once('exit', r));
    expect(code).not.toBe(0);
    expect(stderr).toContain(`is in use by process ${String(first.child.pid)}`);
    // The first one still serves.
    expect(
      (await fetch(`${first.url}/version`, { headers: { authorization: 'Bearer admin' } })).status,
    ).toBe(200);
  }, 60_000);
});
