import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig, V1ConfigMap } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { StateLockedError } from '@dcs/apiserver';
import { startEmbeddedCluster } from '../src/embedded';

/**
 * `pnpm sim --state FILE` (issue 10, items 4 and 7): a restarted cluster is the same cluster (old
 * kubeconfigs, tokens and CA still work), a second process on the same file is refused, a
 * kill -9 leaves a lock the next start takes over. (No acknowledged write lost across kill -9
 * during writes: packages/apiserver/test/persistence.test.ts.)
 */

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  children.length = 0;
});

function coreApi(kubeconfig: string, context = 'sim-operator'): CoreV1Api {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  kc.setCurrentContext(context);
  return kc.makeApiClient(CoreV1Api);
}

function configMap(name: string): V1ConfigMap {
  return Object.assign(new V1ConfigMap(), {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data: { n: name },
  });
}

describe('the --state store', () => {
  it('a restarted cluster keeps its CA, serving key, tokens and port: old kubeconfigs work', async () => {
    const state = join(await mkdtemp(join(tmpdir(), 'sim-state-')), 'state.jsonl');
    const first = await startEmbeddedCluster({ statePath: state });
    const oldKubeconfig = first.kubeconfig;
    await coreApi(oldKubeconfig).createNamespacedConfigMap({
      namespace: 'default',
      body: configMap('before'),
    });
    await first.close();

    const second = await startEmbeddedCluster({ statePath: state });
    try {
      expect(second.url).toBe(first.url);
      expect(second.server.caPem).toBe(first.server.caPem);
      expect([second.operatorToken, second.viewerToken]).toEqual([
        first.operatorToken,
        first.viewerToken,
      ]);
      // The kubeconfig written before the restart: TLS verifies against its CA, tokens are valid.
      const got = await coreApi(oldKubeconfig).readNamespacedConfigMap({
        name: 'before',
        namespace: 'default',
      });
      expect(got.data).toEqual({ n: 'before' });
      const viewer = await coreApi(oldKubeconfig, 'sim-viewer').listNamespacedConfigMap({
        namespace: 'default',
      });
      expect(viewer.items.map((c) => c.metadata?.name)).toContain('before');
      // Private keys and tokens are readable by their owner only.
      for (const f of [`${state}.tls.json`, `${state}.cluster.json`]) {
        expect((await stat(f)).mode & 0o077).toBe(0);
      }
      // A second server on the same state file is refused, naming the process that holds it.
      const err = await startEmbeddedCluster({ statePath: state }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StateLockedError);
      expect((err as Error).message).toContain(state);
    } finally {
      await second.close();
    }
  });

  it(
    'pnpm sim: a second process on one --state file exits with a clear message; after kill -9 of the first, a restart takes the stale lock and is the same cluster',
    { timeout: 120_000 },
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'sim-state-cli-'));
      const state = join(dir, 'state.jsonl');
      const kubeconfigPath = join(dir, 'kubeconfig');
      const first = await runSim(state, kubeconfigPath);
      expect(first.ready).toBe(true);
      const kubeconfig = await readFile(kubeconfigPath, 'utf8');

      const second = await runSim(state, join(dir, 'kubeconfig-2'));
      expect(second.ready).toBe(false);
      expect(second.code).toBe(2);
      expect(second.stderr).toContain(`is in use by process ${String(first.child.pid)}`);

      const api = coreApi(kubeconfig);
      await api.createNamespacedConfigMap({ namespace: 'default', body: configMap('acked') });
      first.child.kill('SIGKILL');
      await withTimeout(
        new Promise((r) => {
          if (first.child.exitCode === null && first.child.signalCode === null)
            first.child.once('exit', r);
          else r(0);
        }),
        10_000,
      );

      // The restart takes the dead process's lock (in this process: one sim start less to wait
      // for) and is the same cluster to the kubeconfig the killed process wrote.
      const restarted = await startEmbeddedCluster({ statePath: state });
      try {
        const got = await withTimeout(
          coreApi(kubeconfig).readNamespacedConfigMap({ name: 'acked', namespace: 'default' }),
          30_000,
        );
        expect(got.data).toEqual({ n: 'acked' });
      } finally {
        await restarted.close();
      }
    },
  );
});

function withTimeout<T>(p: Promise<T>, ms = 5000): Promise<T> {
  return Promise.race([
    p,
    new Promise<never>((_, reject) =>
      setTimeout(() => {
        reject(new Error('no answer'));
      }, ms).unref(),
    ),
  ]);
}

interface SimRun {
  child: ChildProcess;
  ready: boolean;
  code: number | null;
  stderr: string;
}

/** Starts `sim` without controllers; resolves when it is ready or has exited. */
function runSim(state: string, kubeconfigOut: string): Promise<SimRun> {
  // node itself (not the tsx wrapper) so that SIGKILL hits the process holding the state file.
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/sim.ts',
      '--state',
      state,
      '--kubeconfig-out',
      kubeconfigOut,
      '--no-controllers',
      '--seed',
      'empty',
      '--quiet',
    ],
    { cwd: join(import.meta.dirname, '..'), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  const run: SimRun = { child, ready: false, code: null, stderr: '' };
  return new Promise((resolve) => {
    setTimeout(() => {
      resolve(run);
    }, 60_000).unref();
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!run.ready && out.includes('sim: ready')) {
        run.ready = true;
        resolve(run);
      }
    });
    child.stderr.on('data', (d: Buffer) => {
      run.stderr += d.toString();
    });
    child.on('exit', (code) => {
      run.code = code;
      resolve(run);
    });
  });
}
