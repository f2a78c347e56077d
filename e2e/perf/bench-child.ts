import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../support/stack';

/**
 * One of the BFF's benchmark children (apps/bff/bench: `cluster.ts`, the embedded API server with
 * stamped events; `bff.ts`, the BFF alone), started as its own runner starts them and spoken to
 * the same way: JSON lines on stdin and stdout.
 */
export interface BenchChild {
  proc: ChildProcess;
  send(o: unknown): void;
  /** The first line from now on (or already read and not taken) that `pred` accepts. */
  next(pred: (o: Record<string, unknown>) => boolean, timeoutMs: number): Promise<unknown>;
}

const bffDir = join(repoRoot, 'apps/bff');

export function benchChild(script: string, args: readonly string[]): BenchChild {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', join(bffDir, 'bench', script), ...args],
    {
      cwd: bffDir,
      env: process.env,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const unread: Record<string, unknown>[] = [];
  const waiters = new Set<(o: Record<string, unknown>) => boolean>();
  createInterface({ input: proc.stdout }).on('line', (line) => {
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      process.stderr.write(`${script}: ${line}\n`);
      return;
    }
    if (![...waiters].some((w) => w(o))) unread.push(o);
  });
  return {
    proc,
    send: (o) => proc.stdin.write(`${JSON.stringify(o)}\n`),
    next: (pred, timeoutMs) => {
      const i = unread.findIndex(pred);
      if (i >= 0) return Promise.resolve(unread.splice(i, 1)[0]);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(take);
          reject(
            new Error(`bench: ${script} said nothing expected within ${String(timeoutMs)} ms`),
          );
        }, timeoutMs);
        const take = (o: Record<string, unknown>) => {
          if (!pred(o)) return false;
          clearTimeout(timer);
          waiters.delete(take);
          resolve(o);
          return true;
        };
        waiters.add(take);
        proc.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`bench: ${script} exited ${String(code)}`));
        });
      });
    },
  };
}
