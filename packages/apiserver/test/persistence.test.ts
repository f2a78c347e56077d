import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
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
    'loses no acknowledged write when the process is killed with SIGKILL',
    { timeout: 60_000 },
    async () => {
      const state = join(mkdtempSync(join(tmpdir(), 'apiserver-kill-')), 'state.jsonl');
      const first = await startChild(state);
      const headers = { authorization: 'Bearer admin', 'content-type': 'application/json' };
      const acked: string[] = [];
      // Concurrent writes exercise the group commit; each one counts once its response arrived.
      await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          const res = await fetch(`${first.url}/api/v1/namespaces/default/configmaps`, {
            method: 'POST',
            headers,
            body: JSON.stringify(cm(`c${i}`, i)),
          });
          if (res.status === 201) acked.push(`c${i}`);
        }),
      );
      const last = (await (
        await fetch(`${first.url}/api/v1/namespaces/default/configmaps`, { headers })
      ).json()) as { metadata: { resourceVersion: string } };
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));

      const second = await startChild(state);
      const list = (await (
        await fetch(`${second.url}/api/v1/namespaces/default/configmaps`, { headers })
      ).json()) as {
        metadata: { resourceVersion: string };
        items: { metadata: { name: string } }[];
      };
      const names = new Set(list.items.map((i) => i.metadata.name));
      expect(acked).toHaveLength(200);
      for (const n of acked) expect(names.has(n)).toBe(true);
      expect(Number(list.metadata.resourceVersion)).toBeGreaterThan(
        Number(last.metadata.resourceVersion),
      );
    },
  );
});
