/**
 * kubectl against a kind served in two versions (`test/support/multi-version.ts`): it picks the
 * preferred version from discovery, reaches the other one as `widgets.v1.example.com`, and prints
 * the deprecated version's warning as it prints kube-apiserver's (`Warning: <text>` on stderr).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../src/index';
import { toyConversion, toyKind } from './support/multi-version';

function findKubectl(): string | undefined {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return 'kubectl';
  } catch {
    return undefined;
  }
}

const kubectl = findKubectl();
if (!kubectl) console.log('kubectl tests skipped: no kubectl binary on PATH');

let server: ApiServer;
let dir: string;

function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      kubectl ?? 'kubectl',
      args,
      { env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig'), HOME: dir }, timeout: 30_000 },
      (error, stdout, stderr) => {
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          out: stdout,
          err: stderr,
        });
      },
    );
  });
}

const WARNING = 'Warning: example.com/v1 Widget is deprecated; use example.com/v2 Widget';

describe.skipIf(!kubectl)('kubectl against a kind in two versions', () => {
  beforeAll(async () => {
    server = await startApiServer({
      kinds: [toyKind(toyConversion())],
      tokens: [{ token: 'admin', user: 'admin', groups: ['system:masters'] }],
    });
    dir = mkdtempSync(join(tmpdir(), 'apiserver-kubectl-multiver-'));
    writeFileSync(
      join(dir, 'kubeconfig'),
      server.kubeconfig([{ name: 'admin', token: 'admin', namespace: 'default' }]),
    );
    writeFileSync(
      join(dir, 'w.yaml'),
      'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: k1\nspec:\n  color: red\n  size: 3\n',
    );
  });
  afterAll(async () => {
    await server.close();
  });

  it('applies and gets in the deprecated version with the warning, and in the preferred one without', async () => {
    const applied = await run(['apply', '-f', join(dir, 'w.yaml')]);
    expect(applied.code, applied.err).toBe(0);
    expect(applied.out).toContain('widget.example.com/k1 created');
    expect(applied.err).toContain(WARNING);

    const old = await run(['get', 'widgets.v1.example.com']);
    expect(old.code, old.err).toBe(0);
    expect(old.err).toContain(WARNING);
    expect(old.out).toMatch(/NAME\s+COLOR\s+SIZE/);
    expect(old.out).toMatch(/k1\s+red\s+3/);

    const preferred = await run(['get', 'widgets']);
    expect(preferred.code, preferred.err).toBe(0);
    expect(preferred.err).not.toContain('deprecated');
    expect(preferred.out).toMatch(/NAME\s+COLOR\s+REPLICAS/);
    expect(preferred.out).toMatch(/k1\s+red\s+3/);

    const versions = await run(['api-versions']);
    expect(versions.out.split('\n')).toEqual(
      expect.arrayContaining(['example.com/v1', 'example.com/v2']),
    );
    const json = await run([
      'get',
      'widget',
      'k1',
      '-o',
      'jsonpath={.apiVersion} {.spec.replicas}',
    ]);
    expect(json.out).toBe('example.com/v2 3');
  });
});
