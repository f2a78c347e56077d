import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startEmbeddedCluster,
  type CapiRelease,
  type EmbeddedCluster,
  type EmbeddedClusterOptions,
  type kindRegistrations,
} from '@dcs/simulator';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app';
import { loadConfig } from '../../src/config/env';
import { seedDemo, type SeedOptions } from './seed';

/**
 * The embedded management cluster for integration tests, started in-process through the
 * simulator's exported API (src/ never imports it), on 127.0.0.1 and a free port, with a
 * kubeconfig file like the one `pnpm sim` writes.
 */

export interface TestCluster {
  cluster: EmbeddedCluster;
  kubeconfig: string;
  dir: string;
  close(): Promise<void>;
}

export async function startTestCluster(
  seed: SeedOptions | false = {},
  /** Kinds served instead of the simulator's (another provider's CRD: served-fields.test). */
  o: {
    kinds?: ReturnType<typeof kindRegistrations>;
    capiRelease?: CapiRelease;
    /** Trust an OpenID provider (issue 27), as kube-apiserver's --oidc-* flags. */
    oidc?: EmbeddedClusterOptions['oidc'];
  } = {},
): Promise<TestCluster> {
  const cluster = await startEmbeddedCluster({
    host: '127.0.0.1',
    port: 0,
    bookmarkIntervalMs: 1000,
    ...(o.kinds ? { kinds: o.kinds } : {}),
    ...(o.capiRelease ? { capiRelease: o.capiRelease } : {}),
    ...(o.oidc ? { oidc: o.oidc } : {}),
  });
  const dir = await mkdtemp(join(tmpdir(), 'bff-test-'));
  const kubeconfig = join(dir, 'kubeconfig');
  await writeFile(kubeconfig, cluster.kubeconfig, { mode: 0o600 });
  if (seed !== false) await seedDemo(cluster.server.client, seed);
  return {
    cluster,
    kubeconfig,
    dir,
    close: async () => {
      await cluster.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const TEST_SESSION_KEY = Buffer.alloc(32, 7).toString('base64');

export interface TestAppOptions extends Partial<Omit<AppOptions, 'config'>> {
  mode?: 'local' | 'token' | 'oidc';
  context?: string;
  env?: Record<string, string>;
}

/** An app on the test cluster, synced, not listening (use inject) unless the test listens. */
export async function buildTestApp(
  t: TestCluster,
  o: TestAppOptions = {},
): Promise<FastifyInstance> {
  const config = loadConfig({
    argv: ['--kubeconfig', t.kubeconfig, ...(o.context ? ['--context', o.context] : [])],
    env: {
      HOST: '127.0.0.1',
      PORT: '0',
      AUTH_MODE: o.mode ?? 'local',
      SESSION_KEYS: TEST_SESSION_KEY,
      LOG_LEVEL: 'silent',
      ...o.env,
    },
  });
  const { mode: _m, context: _c, env: _e, ...rest } = o;
  const app = await buildApp({ config, verifyScaleDownMs: 500, ...rest });
  await app.ready();
  await app.cache.waitForSync();
  return app;
}
