import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The benchmarks' child processes (cluster.ts, bff.ts, load.ts), each talking JSON lines on
 * stdin/stdout, and what the runner reads of them from /proc.
 */

const here = dirname(fileURLToPath(import.meta.url));

export interface Child {
  proc: ChildProcess;
  next(
    pred: (o: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  send(o: unknown): void;
}

export function child(script: string, args: string[], nodeArgs: string[] = []): Child {
  const proc = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', join(here, script), ...args],
    {
      cwd: join(here, '..'),
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const seen: Record<string, unknown>[] = [];
  const waiters = new Set<{
    pred: (o: Record<string, unknown>) => boolean;
    done: (o: Record<string, unknown>) => void;
  }>();
  {
    createInterface({ input: proc.stdout }).on('line', (line) => {
      let o: Record<string, unknown>;
      try {
        o = JSON.parse(line) as Record<string, unknown>;
      } catch {
        process.stderr.write(`${script}: ${line}\n`);
        return;
      }
      seen.push(o);
      for (const w of [...waiters]) if (w.pred(o)) w.done(o);
    });
  }
  return {
    proc,
    send: (o) => proc.stdin.write(`${JSON.stringify(o)}\n`),
    next: (pred, timeoutMs = 600_000) => {
      const hit = seen.find(pred);
      if (hit) {
        seen.splice(seen.indexOf(hit), 1);
        return Promise.resolve(hit);
      }
      return new Promise((resolve, reject) => {
        const exited = (code: number | null) => {
          clearTimeout(timer);
          waiters.delete(w);
          reject(new Error(`${script} exited (${String(code)})`));
        };
        const timer = setTimeout(() => {
          waiters.delete(w);
          proc.off('exit', exited);
          reject(new Error(`${script}: timed out`));
        }, timeoutMs);
        const w = {
          pred,
          done: (o: Record<string, unknown>) => {
            clearTimeout(timer);
            proc.off('exit', exited);
            waiters.delete(w);
            seen.splice(seen.indexOf(o), 1);
            resolve(o);
          },
        };
        waiters.add(w);
        proc.once('exit', exited);
      });
    },
  };
}

export function rssMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${String(pid)}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** CPU seconds (user + system) a process has used so far, from /proc/PID/stat; 0 without it. */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    // Fields after the command (which may hold spaces): utime and stime are 14th and 15th.
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // USER_HZ is 100 on every Linux build Node runs on.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Ends a child with SIGTERM and resolves once it has exited (at once if it already has). */
export async function stop(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  await new Promise<void>((done) => {
    p.once('exit', () => {
      done();
    });
    p.kill('SIGTERM');
  });
}
