import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLaunchLink, ppidOfStat } from '../src/cli/ancestry';
import { startTestCluster, type TestCluster } from './support/embedded';
import { descendants, killGroup, startCommand, survivors } from './support/processes';

/**
 * Issue 25 item 8: SIGTERM to the `pnpm start` at the top of the root script's chain (pnpm →
 * `sh -c "… && pnpm --filter @dcs/bff start"` → npm exec → sh → pnpm → sh → the launcher) ended
 * pnpm and its shell only: a shell passes no signal on, the rest was re-parented to init, and the
 * launcher's own parent (the last shell) lived on, so the console and the simulator kept serving.
 * Here the same shape without the web build: a shell whose child is another shell whose child is
 * the launcher; the outer shell gets SIGTERM (and dies, passing nothing on). Both modes: the
 * embedded simulator, and `--kubeconfig`.
 */

const BFF = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const READY_MS = 120_000;
const STOP_MS = 20_000;

let dir: string;
let t: TestCluster;
const leftovers: { pgid: number | undefined; pids: number[] }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bff-chain-'));
  t = await startTestCluster({ workers: 1 });
}, 60_000);

afterAll(async () => {
  for (const l of leftovers) killGroup(l.pgid, l.pids);
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

/** `sh -c "true && sh -c 'node … launch.ts …; true'"`: neither shell execs its last command. */
function startChain(name: string, launchArgs: string) {
  const inner = `node --import tsx src/cli/launch.ts ${launchArgs}; true`;
  const started = startCommand('sh', ['-c', `true && sh -c "${inner}"`], {
    cwd: BFF,
    env: {
      PORT: '0',
      LOG_LEVEL: 'info',
      SIM_ARGS: `--seed empty --no-controllers --kubeconfig-out ${join(dir, name, 'kubeconfig')}`,
    },
  });
  const entry = { pgid: started.child.pid, pids: [] as number[] };
  leftovers.push(entry);
  return {
    ...started,
    async running(): Promise<number[]> {
      await started.waitFor(/Server listening at/, READY_MS);
      entry.pids = descendants(started.child.pid ?? -1);
      return entry.pids;
    },
  };
}

describe('the launcher stops when the top of its launch chain is gone (issue 25)', () => {
  it('reads a parent pid from /proc stat and tells launch links from a user’s shell', () => {
    expect(ppidOfStat('123 (sh) S 45 123 123 0 -1')).toBe(45);
    expect(ppidOfStat('9 (node (a) b) S 7 9 9 0 -1')).toBe(7);
    expect(isLaunchLink(['sh', '-c', 'pnpm start'])).toBe(true);
    expect(isLaunchLink(['/usr/bin/node', '--import', 'tsx', 'x.ts'])).toBe(true);
    expect(isLaunchLink(['npm exec pnpm@12.4.2 --filter @dcs/bff start'])).toBe(true);
    expect(isLaunchLink(['-bash'])).toBe(false);
    expect(isLaunchLink(['bash'])).toBe(false);
    expect(isLaunchLink(['tmux', 'new'])).toBe(false);
  });

  it('SIGTERM to the outer shell: the console and the simulator stop, in both modes', async () => {
    const embedded = startChain('embedded', '');
    const remote = startChain('remote', `--kubeconfig ${t.kubeconfig}`);
    const [embeddedPids, remotePids] = await Promise.all([embedded.running(), remote.running()]);
    expect(embeddedPids.length).toBeGreaterThanOrEqual(3); // inner sh, launcher, simulator…
    expect(remotePids.length).toBeGreaterThanOrEqual(2); // inner sh, launcher
    process.kill(embedded.child.pid ?? -1, 'SIGTERM');
    process.kill(remote.child.pid ?? -1, 'SIGTERM');
    const [a, b] = await Promise.all([
      survivors(embeddedPids, STOP_MS),
      survivors(remotePids, STOP_MS),
    ]);
    expect({ embedded: a, remote: b }).toEqual({ embedded: [], remote: [] });
    expect(embedded.output()).toMatch(/launcher: process \d+ that started it is gone; stopping/);
  }, 180_000);
});
