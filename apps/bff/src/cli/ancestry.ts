import { readFileSync } from 'node:fs';

/**
 * Issue 25 item 8: `pnpm start` is a chain of processes — pnpm, `sh -c "… && pnpm --filter
 * @dcs/bff start"`, npm exec, sh, pnpm, sh, the launcher. SIGTERM to the first pnpm ends it and
 * its shell, but a shell passes no signal on: the rest of the chain is re-parented to init while
 * the launcher's own parent (the last shell) lives on, so a check of the launcher's ppid alone
 * never fires and the console and the simulator kept serving. So the launcher remembers every
 * ancestor up to init and stops when any of them is gone or re-parented.
 */

export interface Ancestor {
  pid: number;
  ppid: number;
}

/** The parent pid from the text of `/proc/<pid>/stat` (the name may hold spaces and parentheses). */
export function ppidOfStat(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  return Number.isInteger(ppid) && ppid >= 0 ? ppid : undefined;
}

/** The parent of `pid` as the kernel says now; undefined when it is gone (or there is no /proc). */
export function parentOf(pid: number): number | undefined {
  try {
    return ppidOfStat(readFileSync(`/proc/${String(pid)}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

const RUNNERS = new Set(['pnpm', 'npm', 'npx', 'node', 'tsx']);
const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh']);

/**
 * Whether a process (its argv) is a link of a launch chain: pnpm, npm, npx, node, or a shell
 * running a command (`sh -c …`). An interactive or login shell, `nohup`, a terminal or tmux is
 * not: the user's session may end while a console started with `nohup pnpm start &` keeps on.
 */
export function isLaunchLink(argv: readonly string[]): boolean {
  const first = argv[0] ?? '';
  const name = (first.split(' ')[0] ?? '').split('/').pop() ?? '';
  if (RUNNERS.has(name)) return true;
  return SHELLS.has(name) && argv.includes('-c');
}

function argvOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8')
      .split('\0')
      .filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * This process's ancestors of its launch chain (`isLaunchLink`), its parent first, up to the
 * first that is not one (or init); [] without /proc.
 */
export function ancestorsOf(pid: number = process.pid): Ancestor[] {
  const chain: Ancestor[] = [];
  let current = parentOf(pid);
  if (current === undefined) return chain;
  while (current > 1 && chain.length < 64 && isLaunchLink(argvOf(current))) {
    const ppid = parentOf(current);
    if (ppid === undefined) break;
    chain.push({ pid: current, ppid });
    current = ppid;
  }
  return chain;
}

/** The first ancestor that is gone or has another parent now; undefined while the chain holds. */
export function brokenLink(chain: readonly Ancestor[]): Ancestor | undefined {
  return chain.find((a) => parentOf(a.pid) !== a.ppid);
}

/**
 * Calls `onLost` once when an ancestor of this process is gone or re-parented, or (without
 * /proc) when this process's own parent changes. The timer never keeps the process alive.
 */
export function watchAncestors(onLost: (why: string) => void, pollMs = 1000): () => void {
  const chain = ancestorsOf();
  const parent = process.ppid;
  const timer = setInterval(() => {
    const broken = chain.length > 0 ? brokenLink(chain) : undefined;
    const why = broken
      ? `process ${String(broken.pid)} that started it is gone`
      : process.ppid !== parent
        ? `its parent (pid ${String(parent)}) is gone`
        : undefined;
    if (why === undefined) return;
    clearInterval(timer);
    onLost(why);
  }, pollMs);
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}
