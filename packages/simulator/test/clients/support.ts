import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedCluster, type EmbeddedCluster } from '../../src/embedded';
import { seed } from '../../src/seed';
import { seedClientInProcess } from '../../src/seed/clients';

/**
 * What the client suites share: the embedded management cluster seeded with `demo` (as
 * `pnpm sim --seed demo --no-controllers` starts it: the demo objects stay as seeded, so a suite
 * reads and writes them without a controller writing too), a kubeconfig with its operator and
 * viewer contexts, a client binary that must be there in CI, and a script's report.
 */

export interface ClientCluster {
  cluster: EmbeddedCluster;
  dir: string;
  kubeconfig: string;
  close(): Promise<void>;
}

/**
 * Watch history kept per kind: small, so that a suite can make a resourceVersion too old (410)
 * with a few dozen writes, as a long-idle client finds it on a real cluster.
 */
export const WATCH_HISTORY = 30;

export async function startClientCluster(name: string): Promise<ClientCluster> {
  const dir = await mkdtemp(join(tmpdir(), `clients-${name}-`));
  const cluster = await startEmbeddedCluster({
    bookmarkIntervalMs: 300,
    watchHistorySize: WATCH_HISTORY,
  });
  await seed('demo', seedClientInProcess(cluster.server.client), { rollingUpgrade: false });
  const kubeconfig = join(dir, 'kubeconfig');
  await writeFile(kubeconfig, cluster.kubeconfig, { mode: 0o600 });
  return {
    cluster,
    dir,
    kubeconfig,
    close: async () => {
      await cluster.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A client program, or undefined when it is missing outside CI (the suite is then skipped, and
 * says how to install it). In CI (`CI` set, as `.ci/run` sets it) a missing client fails the
 * suite with the install command: a client suite never passes by not running.
 */
export function requireClient(
  what: string,
  probe: readonly [string, ...string[]],
  install: string,
): boolean {
  const [cmd, ...args] = probe;
  let found = existsSync(cmd) || !cmd.includes('/');
  if (found) {
    try {
      execFileSync(cmd, args, { stdio: 'ignore', timeout: 20_000 });
    } catch {
      found = false;
    }
  }
  if (found) return true;
  const message = `${what} is not installed: ${install}`;
  if (process.env.CI) throw new Error(message);
  console.warn(`client suite skipped: ${message}`);
  return false;
}

export interface CaseResult {
  case: string;
  ok: boolean;
  error?: string;
}

export interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
  results: Map<string, CaseResult>;
}

/**
 * Runs a suite's script: it prints one JSON line per case (`{"case", "ok", "error"}`) and may
 * print anything else around them.
 */
export function runScript(
  cmd: string,
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs = 240_000,
): Promise<ScriptRun> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => {
        const results = new Map<string, CaseResult>();
        for (const line of stdout.split('\n')) {
          if (!line.startsWith('{"case"')) continue;
          try {
            const r = JSON.parse(line) as CaseResult;
            results.set(r.case, r);
          } catch {
            // Not a report line after all.
          }
        }
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr, results });
      },
    );
  });
}

/** The failure message of a case: its error, or that it never reported, with the script's stderr. */
export function caseFailure(run: ScriptRun, name: string): string | undefined {
  const r = run.results.get(name);
  if (r?.ok) return undefined;
  const tail = run.stderr.split('\n').slice(-30).join('\n');
  return r
    ? `${name}: ${r.error ?? 'failed'}`
    : `${name}: never reported (exit ${run.code})\n${tail}`;
}

export interface ScriptSuite {
  /** The `describe` title. */
  title: string;
  /** Whether the client is installed (`requireClient`); the suite is skipped otherwise. */
  present: boolean;
  /** Names the cluster's temporary folder. */
  cluster: string;
  command: string;
  args: readonly string[];
  /** The cases the script must report, sorted. */
  cases: readonly string[];
  /** Environment besides KUBECONFIG, NAMESPACE and WATCH_HISTORY. */
  env?: (env: ClientCluster) => Record<string, string>;
}

/**
 * A client's script run once against a cluster of its own, one `it` per case it must report: what
 * the Python, Ruby and kubectl suites each are.
 */
export function describeScriptSuite(s: ScriptSuite): void {
  let env: ClientCluster;
  let run: ScriptRun;
  describe.runIf(s.present)(s.title, () => {
    beforeAll(async () => {
      env = await startClientCluster(s.cluster);
      run = await runScript(s.command, s.args, {
        KUBECONFIG: env.kubeconfig,
        NAMESPACE: 'cpaas-system',
        WATCH_HISTORY: String(WATCH_HISTORY),
        ...s.env?.(env),
      });
    }, 300_000);
    afterAll(async () => {
      await env.close();
    });

    it('reports every case', () => {
      expect([...run.results.keys()].sort()).toEqual(s.cases);
    });
    it.each(s.cases)('%s', (name) => {
      expect(caseFailure(run, name)).toBeUndefined();
    });
  });
}
