import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The whole stack for one Playwright worker: the embedded management cluster (simulator, at a
 * high time scale, on a free port) and the BFF (token mode, on a free port) serving the built
 * SPA. Stopped when the worker ends.
 */

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '../..');
const tsx = join(repoRoot, 'e2e/node_modules/.bin/tsx');
/** The Cluster API releases the simulator stands for (its own list, packages/simulator/src/capi). */
export type CapiRelease = 'v1.10' | 'v1.14' | 'v1.16';
export const webDist = join(repoRoot, 'apps/web/dist');

export interface StackOptions {
  /** Simulated seconds per real second. */
  timeScale?: number;
  /** The DCS provider version the simulator reports (R-VER-*). */
  providerVersion?: string;
  seed?: 'demo' | 'empty';
  /**
   * The Cluster API release the embedded cluster stands for (issue 23); by default
   * E2E_CAPI_RELEASE, else the simulator's default (v1.14).
   */
  capiRelease?: CapiRelease;
  /**
   * Issue 27: the simulator runs its embedded OpenID provider (demo users operator and viewer),
   * the cluster trusts it, and the BFF signs users in through it (OIDC mode).
   */
  sso?: boolean;
  /** Names the stack's temporary folder (`dcs-e2e-NAME-…`), to tell stacks apart when debugging. */
  name?: string;
  /**
   * The built SPA the BFF serves (default apps/web/dist, which the e2e suite's global setup
   * builds): `pnpm bench` passes its own build, since a clean checkout has no apps/web/dist yet.
   */
  staticDir?: string;
}

export interface Stack {
  url: string;
  /** The embedded OpenID provider's issuer (an `sso` stack). */
  issuer?: string;
  tokens: { operator: string; viewer: string };
  kubeconfig: string;
  /**
   * Upgrades the embedded cluster's Cluster API to the next release while everything runs, as
   * `clusterctl upgrade` does (the simulator's SIGUSR2); resolves with the simulator's line.
   */
  upgradeCapi: () => Promise<string>;
  /**
   * What the BFF has logged at level error or above since it started (an unhandled error behind
   * a 500, a cache listener that threw), the last ones in full and how many in all: every 5xx is a
   * bug, and the journeys fail on one (fixtures/stack.ts).
   */
  serverErrors: () => { count: number; last: readonly string[] };
  stop: () => Promise<void>;
}

/** pino's level of error. */
const LOG_ERROR = 50;
const KEPT_ERRORS = 10;

/** Collects `child`'s log lines (pino's JSON on stdout) at level error or above. */
export function errorLog(child: ChildProcess): Stack['serverErrors'] {
  let count = 0;
  const last: string[] = [];
  if (child.stdout) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      let level: unknown;
      try {
        level = (JSON.parse(line) as { level?: unknown }).level;
      } catch {
        return;
      }
      if (typeof level !== 'number' || level < LOG_ERROR) return;
      count++;
      last.push(line.length > 4000 ? `${line.slice(0, 4000)}…` : line);
      if (last.length > KEPT_ERRORS) last.shift();
    });
  }
  return () => ({ count, last: [...last] });
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => {
        ok(port);
      });
    });
  });
}

/**
 * Resolves with the first match of `pattern` in the process's output from now on, or fails on
 * exit/timeout. Its listeners go once it settles (the streams keep flowing: nothing blocks the
 * child), so that a long-lived stack does not scan an ever longer output on every chunk.
 */
function waitFor(
  child: ChildProcess,
  pattern: RegExp,
  what: string,
  timeoutMs = 90_000,
): Promise<RegExpMatchArray> {
  return new Promise((ok, fail) => {
    let out = '';
    const done = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    const timer = setTimeout(() => {
      done();
      fail(new Error(`${what} did not happen within ${String(timeoutMs)} ms:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = pattern.exec(out);
      if (m) {
        done();
        ok(m);
      }
    };
    const onExit = (code: number | null) => {
      done();
      fail(new Error(`${what}: the process exited with ${String(code)}:\n${out}`));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((ok) => {
    if (child.exitCode !== null || child.pid === undefined) {
      ok();
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
    }, 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      ok();
    });
    child.kill('SIGTERM');
  });
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), `dcs-e2e-${options.name ? `${options.name}-` : ''}`));
  const kubeconfig = join(dir, 'kubeconfig');
  const timeScale = options.timeScale ?? 30;
  const capiRelease = options.capiRelease ?? process.env.E2E_CAPI_RELEASE;
  // The provider must know the console's exact redirect URI, so the BFF's port is chosen first.
  const port = await freePort();
  const consoleUrl = `http://127.0.0.1:${String(port)}`;
  // Node with tsx's loader, not the tsx CLI: its wrapper process relays SIGINT and SIGTERM only,
  // and a SIGUSR2 (the upgrade) would end it.
  const sim = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/sim.ts',
      '--port',
      '0',
      '--kubeconfig-out',
      kubeconfig,
      '--time-scale',
      String(timeScale),
      '--seed',
      options.seed ?? 'demo',
      ...(options.providerVersion ? ['--provider-version', options.providerVersion] : []),
      // Issue 23: the journeys against another Cluster API release (v1.10, v1.16; default v1.14).
      ...(capiRelease ? ['--capi-release', capiRelease] : []),
      ...(options.sso
        ? [
            '--oidc',
            '--oidc-redirect-uri',
            `${consoleUrl}/api/v1/session/oidc/callback`,
            '--oidc-post-logout-redirect-uri',
            `${consoleUrl}/sign-in`,
          ]
        : []),
    ],
    { cwd: join(repoRoot, 'packages/simulator'), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const children: ChildProcess[] = [sim];
  const stop = async () => {
    await Promise.all(children.map(stopProcess));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // One write prints the tokens and then the provider's line: both read in one match.
    const [, operator = '', viewer = '', issuer] = await waitFor(
      sim,
      options.sso
        ? /operator token (\S+)\s+sim: viewer token\s+(\S+)\s+sim: oidc issuer (\S+) client/
        : /operator token (\S+)\s+sim: viewer token\s+(\S+)/,
      'the simulator',
    );
    const bff = spawn(
      tsx,
      [
        join(repoRoot, 'e2e/support/serve-bff.ts'),
        kubeconfig,
        String(port),
        options.staticDir ?? webDist,
        String(timeScale),
        ...(options.providerVersion ? [options.providerVersion] : []),
      ],
      {
        cwd: join(repoRoot, 'e2e'),
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          ...(issuer ? { E2E_SSO_ISSUER: issuer, E2E_CONSOLE_URL: consoleUrl } : {}),
        },
      },
    );
    children.push(bff);
    const serverErrors = errorLog(bff);
    await waitFor(bff, /bff: ready/, 'the BFF');
    const upgradeCapi = async () => {
      const upgraded = waitFor(sim, /sim: Cluster API upgraded [^\n]*\n/, 'the upgrade', 120_000);
      sim.kill('SIGUSR2');
      const [line = ''] = await upgraded;
      return line.trim();
    };
    return {
      url: consoleUrl,
      ...(issuer ? { issuer } : {}),
      tokens: { operator, viewer },
      kubeconfig,
      upgradeCapi,
      serverErrors,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
