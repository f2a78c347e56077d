import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { startApiServer, type ApiServer } from '@dcs/apiserver';
import { dcsCrds } from '../src/crds';
import { kindRegistrations } from '../src/embedded';

/**
 * Issue 25 item 1: an API server with Cluster API's core CRDs and the DCS ones but not the
 * KubeadmConfig CRD (as the reference set of Cluster API CRDs lacks it). `sim:controllers` names
 * the missing kind once, at start, with the command that installs it, and exits, instead of an
 * informer looping on 404; that command's `sim:crds --kubeconfig FILE` prints exactly what is
 * missing besides the DCS CRDs.
 */

let server: ApiServer;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sim-missing-'));
  server = await startApiServer({
    kinds: kindRegistrations().filter((k) => k.kind !== 'KubeadmConfig'),
    tokens: [{ token: 'admin-token', user: 'admin', groups: ['system:masters'] }],
  });
  kubeconfig = join(dir, 'kubeconfig');
  await writeFile(kubeconfig, server.kubeconfig([{ name: 'admin', token: 'admin-token' }]));
}, 30_000);

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs a CLI of src/cli to its exit (killed after 60 s); its output and exit code. */
async function run(
  cli: string,
  args: string[],
): Promise<{ out: string; err: string; code: number | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', `src/cli/${cli}.ts`, ...args], {
    cwd: join(import.meta.dirname, '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const timer = setTimeout(() => child.kill('SIGTERM'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  return { out, err, code };
}

describe('a CRD the controllers need is missing (issue 25)', () => {
  it('sim:controllers names it once with the command that installs it, and exits 1', async () => {
    const r = await run('controllers', ['--kubeconfig', kubeconfig, '--seed', 'demo']);
    expect(r.code).toBe(1);
    const output = r.out + r.err;
    expect(output).toMatch(
      /^sim:controllers: cannot start: the API server does not serve kubeadmconfigs\.bootstrap\.cluster\.x-k8s\.io\/v1beta1 \(KubeadmConfig\)/m,
    );
    expect(output).toContain(
      `pnpm --silent sim:crds --kubeconfig ${kubeconfig} | kubectl --kubeconfig ${kubeconfig} apply --server-side -f -`,
    );
    expect(output.match(/KubeadmConfig\)/g)).toHaveLength(1);
    expect(output).not.toMatch(/informer .*404/);
    expect(output).not.toMatch(/\n\s+at /);
  }, 90_000);

  it('sim:crds --kubeconfig FILE prints the DCS CRDs and the missing one only', async () => {
    const r = await run('crds', ['--kubeconfig', kubeconfig]);
    expect(r.code, r.err).toBe(0);
    const names = parseAllDocuments(r.out).map(
      (d) => (d.toJS() as { metadata: { name: string } }).metadata.name,
    );
    expect(names.sort()).toEqual(
      [
        ...dcsCrds().map((c) => c.metadata.name),
        'kubeadmconfigs.bootstrap.cluster.x-k8s.io',
      ].sort(),
    );
  }, 90_000);
});
