import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Process-tree helpers for tests that start real commands (the launcher, the README's commands):
 * started in their own process group so that a test can signal the group as a terminal would,
 * and every descendant found from /proc so that a test can prove none survived.
 */

interface ProcInfo {
  ppid: number;
  state: string;
}

function procInfo(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    // `pid (comm) state ppid …`; comm may contain spaces and parentheses.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0] ?? '?', ppid: Number(rest[1]) };
  } catch {
    return undefined;
  }
}

/** Every live descendant of `root` (not `root` itself). */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const info = procInfo(pid);
    if (!info || info.state === 'Z') continue;
    children.set(info.ppid, [...(children.get(info.ppid) ?? []), pid]);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() ?? -1) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** The command line of a process ('' once it is gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Alive and not a zombie waiting to be reaped. */
export function isAlive(pid: number): boolean {
  const info = procInfo(pid);
  return info !== undefined && info.state !== 'Z';
}

export interface Started {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the first output line matching `pattern`. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a command in a new process group (like a shell job), collecting its output. */
export function startCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Started {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let text = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const w of waiters) w();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
      for (const w of waiters) w();
    });
  });
  const waitFor = (pattern: RegExp, timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = text.split('\n').find((l) => pattern.test(l));
        if (line !== undefined) {
          done();
          resolve(line);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          done();
          reject(new Error(`exited before ${String(pattern)}:\n${text.slice(-3000)}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(`no ${String(pattern)} within ${String(timeoutMs)} ms:\n${text.slice(-3000)}`),
        );
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return { child, output: () => text, waitFor, exited };
}

/** Polls until none of `pids` is alive; returns those still alive at the deadline. */
export async function survivors(pids: readonly number[], withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Last resort after a test: SIGKILL whatever of a group is left, so a failure leaks nothing. */
export function killGroup(pgid: number | undefined, pids: readonly number[] = []): void {
  if (pgid !== undefined) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
  }
  for (const pid of pids.filter(isAlive)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}
