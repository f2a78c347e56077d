import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '@dcs/apiserver';
import { kindRegistrations } from '../src/embedded';

/**
 * Issue 13 item 4: `pnpm sim:controllers --seed demo` against a fresh API server, where
 * `cpaas-system` does not exist (a real cluster with only the CRDs installed). Here an API server
 * with the kinds and no product namespace; the CLI reaches it only through a kubeconfig.
 */

let server: ApiServer;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sim-fresh-'));
  server = await startApiServer({
    kinds: kindRegistrations(),
    tokens: [
      { token: 'admin-token', user: 'admin', groups: ['system:masters'] },
      { token: 'nobody-token', user: 'nobody', groups: [] },
    ],
  });
}, 30_000);

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI until it prints `until` (then stops it) or exits; returns its output and exit code. */
async function runCli(
  context: string,
  until: string,
): Promise<{ output: string; code: number | null }> {
  const kubeconfig = join(dir, `kubeconfig-${context}`);
  await writeFile(
    kubeconfig,
    server.kubeconfig(
      [
        { name: 'admin', token: 'admin-token' },
        { name: 'nobody', token: 'nobody-token' },
      ],
      { currentContext: context },
    ),
  );
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/controllers.ts',
      '--kubeconfig',
      kubeconfig,
      '--seed',
      'demo',
      '--time-scale',
      '1000',
      '--quiet',
    ],
    { cwd: join(import.meta.dirname, '..'), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setInterval(() => {
      if (output.includes(until)) child.kill('SIGTERM');
    }, 50);
    child.once('exit', (c) => {
      clearInterval(timer);
      resolve(c);
    });
  });
  return { output, code };
}

describe('sim:controllers --seed demo on a fresh API server (no cpaas-system)', () => {
  it('creates the namespace it needs and seeds the demo', async () => {
    const { output } = await runCli('admin', 'sim:controllers: running against');
    expect(output).toMatch(/seed demo: \d+ created/);
    expect(output).not.toMatch(/\n\s+at /);
    expect(
      server.client.get({ apiVersion: 'v1', kind: 'Namespace', name: 'cpaas-system' }),
    ).toBeDefined();
    expect(server.client.list('cluster.x-k8s.io/v1beta1', 'Cluster', 'cpaas-system').length).toBe(
      2,
    );
  }, 60_000);

  it('without the rights, says what is missing and exits 1, without a stack trace', async () => {
    const { output, code } = await runCli('nobody', 'never printed');
    expect(code).toBe(1);
    expect(output).toMatch(/^sim:controllers: cannot start: .*403/m);
    expect(output).not.toMatch(/\n\s+at /);
  }, 60_000);
});
