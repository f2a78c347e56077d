import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { Informer } from '../src/informer';
import { fast, machineSpec, startServer } from './support/harness';

/** Live sockets and timers of this process, by kind. */
function handles(): { sockets: number; timers: number } {
  const info = process.getActiveResourcesInfo();
  return {
    sockets: info.filter((kind) => kind.startsWith('TCP')).length,
    timers: info.filter((kind) => kind === 'Timeout').length,
  };
}

async function elapsed(run: () => Promise<unknown>): Promise<number> {
  const started = Date.now();
  await run();
  return Date.now() - started;
}

describe('Informer: stop', () => {
  it('aborts the watch in flight and leaves no socket or timer behind', async () => {
    const before = handles();
    const server = await startServer();
    server.add('a');
    const informer = new Informer(server.kubeConfig(), machineSpec, {
      ...fast,
      staleAfterMs: 10_000, // so that an alarm timer is armed
    }).start();
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);

    await informer.stop();
    expect(informer.metrics().state).toBe('stopped');
    await expect.poll(() => server.openWatches).toBe(0);
    await server.close();
    await expect
      .poll(() => handles().sockets, { timeout: 3_000 })
      .toBeLessThanOrEqual(before.sockets);
    await expect
      .poll(() => handles().timers, { timeout: 3_000 })
      .toBeLessThanOrEqual(before.timers);
    // Stopped for good: a later start() does nothing.
    informer.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.watchRequests()).toHaveLength(1);
  });

  it('cuts a long backoff short', async () => {
    const server = await startServer();
    server.failLists(1);
    const onError = vi.fn();
    const informer = new Informer(server.kubeConfig(), machineSpec, {
      onError,
      backoff: { initialMs: 60_000, jitter: 0 },
    }).start();
    await expect.poll(() => onError.mock.calls.length).toBe(1);
    expect(informer.metrics().state).toBe('backoff');
    expect(await elapsed(() => informer.stop())).toBeLessThan(500);
  });

  it('aborts a LIST the server never answers, and rejects `synced`', async () => {
    const server = await startServer();
    server.failLists(1, 0); // hang
    const informer = new Informer(server.kubeConfig(), machineSpec, fast).start();
    await expect.poll(() => server.listRequests()).toHaveLength(1);
    expect(await elapsed(() => informer.stop())).toBeLessThan(500);
    await expect(informer.synced).rejects.toThrow(/stopped before it synced/);
  });

  it('aborts a WATCH whose response headers never come', async () => {
    const server = await startServer();
    server.scriptWatch({ kind: 'hang' });
    const informer = new Informer(server.kubeConfig(), machineSpec, {
      ...fast,
      idleTimeoutMs: 60_000,
    }).start();
    await informer.synced;
    await expect.poll(() => server.watchRequests()).toHaveLength(1);
    expect(await elapsed(() => informer.stop())).toBeLessThan(500);
  });

  it('lets the process exit by itself once stopped', async () => {
    const script = fileURLToPath(new URL('fixtures/exit-cleanly.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stoppedAt = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (stoppedAt === 0 && output.includes('stopped')) stoppedAt = Date.now();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(null);
      }, 15_000);
      child.on('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    const exitedAfterMs = Date.now() - stoppedAt;
    expect(output).toContain('stopped with 2 objects');
    expect(code, `the process did not exit by itself:\n${output}`).toBe(0);
    // Promptly: a leftover keep-alive socket or timer would hold it for seconds.
    expect(exitedAfterMs).toBeLessThan(2_000);
  }, 20_000);
});
