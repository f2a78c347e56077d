import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commandLine,
  descendants,
  isAlive,
  killGroup,
  startCommand,
  survivors,
} from './support/processes';

/**
 * Issue 10 item 8: stopping `pnpm start` stops everything it started, always — SIGTERM to pnpm
 * while the machine is busy, Ctrl-C (SIGINT to the terminal's process group), and a SIGKILL of
 * the launcher itself, which runs no handler at all. Each case starts the real package script,
 * records every process below it once the console listens, stops it, and checks that none of
 * them is left.
 */

const BFF = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** pnpm itself (the script that runs this test), not a wrapper that may not pass signals on. */
const PNPM = process.env.npm_execpath;
/**
 * How to run pnpm: its entry script through node, or — pnpm installed as its native binary, as
 * `npx pnpm@12` does on CI — the binary itself (node cannot load an ELF file).
 */
const pnpmCommand = (pnpm: string, args: string[]): [string, string[]] =>
  /\.[cm]?js$/.test(pnpm) ? [process.execPath, [pnpm, ...args]] : [pnpm, args];
const READY_MS = 120_000;
const STOP_MS = 20_000;

let dir: string;
const leftovers: { pgid: number | undefined; pids: number[] }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bff-launcher-'));
});

afterAll(async () => {
  for (const l of leftovers) killGroup(l.pgid, l.pids);
  await rm(dir, { recursive: true, force: true });
});

function startConsole(name: string, via: 'pnpm' | 'node') {
  const env = {
    PORT: '0',
    LOG_LEVEL: 'info',
    // Cheap: no demo data, no controllers; its own kubeconfig, not the developer's .sim/.
    SIM_ARGS: `--seed empty --no-controllers --kubeconfig-out ${join(dir, name, 'kubeconfig')}`,
  };
  const started =
    via === 'pnpm' && PNPM !== undefined
      ? startCommand(...pnpmCommand(PNPM, ['--silent', 'start']), { cwd: BFF, env })
      : startCommand(process.execPath, ['--import', 'tsx', 'src/cli/launch.ts'], {
          cwd: BFF,
          env,
        });
  const entry = { pgid: started.child.pid, pids: [] as number[] };
  leftovers.push(entry);
  return {
    ...started,
    /** Waits until the console listens; returns every process started below the root. */
    async running(): Promise<number[]> {
      await started.waitFor(/Server listening at/, READY_MS);
      const all = descendants(started.child.pid ?? -1);
      entry.pids = all;
      return all;
    },
  };
}

/** Busy loops on every core, in their own group: a loaded machine, where timings slip. */
function busyMachine(): ChildProcess[] {
  return [0, 1].map(() =>
    spawn(process.execPath, ['-e', 'for(;;){}'], { detached: true, stdio: 'ignore' }),
  );
}

const isSimulator = (pid: number) => commandLine(pid).includes('src/cli/sim.ts');

describe('pnpm start: stopping it stops everything it started (issue 10 item 8)', () => {
  it('SIGTERM to pnpm on a busy machine, Ctrl-C to the group, SIGKILL of the launcher: nothing survives', async () => {
    const viaPnpm = startConsole('term', 'pnpm');
    const ctrlC = startConsole('int', 'node');
    const killed = startConsole('kill', 'node');
    const [termPids, intPids, killPids] = await Promise.all([
      viaPnpm.running(),
      ctrlC.running(),
      killed.running(),
    ]);
    for (const pids of [termPids, intPids, killPids]) {
      expect(
        pids.some((p) => isSimulator(p)),
        'a simulator was started',
      ).toBe(true);
    }

    const load = busyMachine();
    try {
      process.kill(viaPnpm.child.pid ?? -1, 'SIGTERM');
      process.kill(-(ctrlC.child.pid ?? -1), 'SIGINT');
      // The launcher is the root itself here (started with node directly).
      process.kill(killed.child.pid ?? -1, 'SIGKILL');
      const [term, int, kill] = await Promise.all([
        survivors([viaPnpm.child.pid ?? -1, ...termPids], STOP_MS),
        survivors([ctrlC.child.pid ?? -1, ...intPids], STOP_MS),
        survivors(killPids, STOP_MS),
      ]);
      expect({ term, int, kill }).toEqual({ term: [], int: [], kill: [] });
    } finally {
      for (const p of load) p.kill('SIGKILL');
    }
    expect(isAlive(killed.child.pid ?? -1)).toBe(false);
    expect(killed.output()).toMatch(/lifeline: the launcher \(pid \d+\) is gone/);
  }, 180_000);
});
