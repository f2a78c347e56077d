import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The benchmark at reduced scale, as a correctness check (CI): three processes, every event
 * delivered to every stream, upstream watches the same for 1 and for many clients. The latency
 * and memory targets are judged at full scale only (`pnpm bench`).
 */
const run = promisify(execFile);

describe('benchmark at reduced scale', () => {
  it('delivers every event to every stream with the same upstream watches for 1 and many clients', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, '..', 'bench', 'run.ts'),
        '--scale',
        '0.02',
        '--json',
      ],
      {
        cwd: join(import.meta.dirname, '..'),
        timeout: 240_000,
      },
    );
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      watchesOne: number;
      watchesMany: number;
      deliveredRatio: number;
      http: { errors: number };
    };
    expect(result.watchesOne).toBeGreaterThan(0);
    expect(result.watchesMany).toBe(result.watchesOne);
    expect(result.deliveredRatio).toBeGreaterThanOrEqual(0.999);
    expect(result.http.errors).toBe(0);
  }, 300_000);
});
