import type { EmbeddedCluster } from '@dcs/simulator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { CachedKind } from '../../src/cache/watched-kinds';
import { buildTestApp, startTestCluster, type TestAppOptions, type TestCluster } from './embedded';
import type { SeedOptions } from './seed';
import { TestSession } from './session';

/**
 * The set-up most route tests share: in a `describe`, a seeded embedded cluster, an app synced
 * on it and a browser-like session, started before the tests and closed after them. Read the
 * parts inside tests (they exist once `beforeAll` has run).
 */

export interface AppUnderTest {
  readonly t: TestCluster;
  readonly app: FastifyInstance;
  readonly s: TestSession;
  /** The embedded API server's in-process client: what kubectl would read and write. */
  server(): EmbeddedCluster['server']['client'];
}

export interface UseTestAppOptions {
  /** The demo seed's options (`false`: an empty cluster). */
  seed?: SeedOptions | false;
  /** The app's options (auth mode, executor polling …). */
  app?: TestAppOptions;
  /** Passed to `startTestCluster` (another provider's CRDs). */
  cluster?: Parameters<typeof startTestCluster>[1];
}

export function useTestApp(o: UseTestAppOptions = {}): AppUnderTest {
  let t: TestCluster | undefined;
  let app: FastifyInstance | undefined;
  let s: TestSession | undefined;
  beforeAll(async () => {
    t = await startTestCluster(o.seed ?? {}, o.cluster ?? {});
    app = await buildTestApp(t, o.app ?? {});
    s = new TestSession(app);
    await s.start();
  }, 90_000);
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });
  const started = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('useTestApp: read its parts inside tests');
    return v;
  };
  return {
    get t() {
      return started(t);
    },
    get app() {
      return started(app);
    },
    get s() {
      return started(s);
    },
    server: () => started(t).cluster.server.client,
  };
}

/**
 * Until `app`'s cache holds resourceVersion `rv` of the object (the server's current one, read
 * by the caller), so that a request plans from what the server has; polls, with a roomy deadline
 * for a loaded machine.
 */
export async function untilCached(
  app: FastifyInstance,
  kind: CachedKind,
  namespace: string,
  name: string,
  rv: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.cache.store(kind).get(namespace, name)?.metadata.resourceVersion === rv) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the cache never reached resourceVersion ${rv} of ${kind} ${namespace}/${name}`);
}
