import { Writable } from 'node:stream';
import { startEmbeddedCluster } from '@dcs/simulator';
import { aMachine } from '@dcs/domain/testing';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from './support/embedded';
import { put, seedDemo } from './support/seed';

/**
 * Issue 13 item 6: a server that sends no bookmarks within the staleness window (here: one
 * every 10 s, a window of 300 ms) makes every quiet watch restart. They resume quietly: counted,
 * logged at debug level, never a warning, and the cache keeps following the cluster.
 */
describe('quiet watches without bookmarks (issue 13 item 6)', () => {
  it('resume from the same resourceVersion without a warning, counted, the cache still current', async () => {
    const cluster = await startEmbeddedCluster({
      host: '127.0.0.1',
      port: 0,
      bookmarkIntervalMs: 10_000,
    });
    const dir = await mkdtemp(join(tmpdir(), 'bff-quiet-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await writeFile(kubeconfig, cluster.kubeconfig, { mode: 0o600 });
    await seedDemo(cluster.server.client);
    const lines: { level: number; msg: string }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk
          .toString('utf8')
          .split('\n')
          .filter((x) => x !== '')) {
          lines.push(JSON.parse(l) as { level: number; msg: string });
        }
        done();
      },
    });
    const app = await buildTestApp(
      { cluster, kubeconfig, dir, close: () => Promise.resolve() },
      { env: { INFORMER_STALE_AFTER_MS: '300' }, logger: { level: 'debug', stream } },
    );
    try {
      await expect
        .poll(() => Math.min(...app.cache.health().map((h) => h.staleRestarts)), {
          timeout: 15_000,
        })
        .toBeGreaterThanOrEqual(2);
      await put(cluster.server.client, aMachine({ metadata: { name: 'after-quiet' } }));
      await expect
        .poll(() => app.cache.stores.Machine.list().some((m) => m.metadata.name === 'after-quiet'))
        .toBe(true);
      expect((await app.inject('/readyz')).statusCode).toBe(200);
      expect(app.cache.health().every((h) => h.errors === 0)).toBe(true);
      const warnings = lines.filter((l) => l.level >= 40 && /informer|watch/i.test(l.msg));
      expect(warnings).toEqual([]);
      expect(lines.some((l) => l.level === 20 && l.msg.includes('silent; resumed'))).toBe(true);
    } finally {
      await app.close();
      await cluster.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
