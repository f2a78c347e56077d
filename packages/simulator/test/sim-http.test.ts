import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `pnpm sim --http` (root README: plain HTTP on loopback): the controllers connect with the
 * kubeconfig the cluster writes, as kubectl reads it (no TLS settings). They refused it with
 * client-node's "HTTP protocol is not allowed when skipTLSVerify is not set" and the process
 * exited before any machine was reconciled.
 */

let child: ChildProcess | undefined;
let dir: string | undefined;
afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Kubeconfig {
  clusters: { cluster: Record<string, unknown> }[];
  users: { name: string; user: { token: string } }[];
}

describe('pnpm sim --http', () => {
  it('serves plain HTTP on loopback and its controllers reconcile the demo over it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sim-http-'));
    const kubeconfigOut = join(dir, 'kubeconfig');
    const proc = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/sim.ts',
        '--http',
        '--port',
        '0',
        '--kubeconfig-out',
        kubeconfigOut,
        '--seed',
        'demo',
        '--time-scale',
        '60',
        '--quiet',
      ],
      { cwd: join(import.meta.dirname, '..'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      proc.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('sim: ready')) resolve();
      });
      proc.on('exit', (code) => {
        reject(new Error(`sim exited ${String(code)} before ready: ${stderr}`));
      });
    });
    const kc = parse(await readFile(kubeconfigOut, 'utf8')) as Kubeconfig;
    const cluster = kc.clusters[0]?.cluster ?? {};
    const server = String(cluster.server);
    expect(server).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // What kubectl reads: no TLS settings to skip.
    expect(cluster['insecure-skip-tls-verify']).toBeUndefined();
    const token = kc.users[0]?.user.token ?? '';
    const deadline = Date.now() + 120_000;
    let running = 0;
    while (running === 0) {
      if (proc.exitCode !== null) throw new Error(`sim exited ${String(proc.exitCode)}: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`no machine Running within 120 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 500));
      const res = await fetch(`${server}/apis/cluster.x-k8s.io/v1beta1/machines`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const list = (await res.json()) as { items?: { status?: { phase?: string } }[] };
      running = (list.items ?? []).filter((m) => m.status?.phase === 'Running').length;
    }
    expect(running).toBeGreaterThan(0);
    expect(stderr).not.toContain('HTTP protocol is not allowed');
  }, 180_000);
});
