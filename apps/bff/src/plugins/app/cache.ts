import { asHub } from '@dcs/domain';
import { ApiError, InformerFactory } from '@dcs/informer';
import type { KubeConfig } from '@kubernetes/client-node';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import { informerSources } from '../../cache/informer-source';
import { cacheNotSynced } from '../../http/errors';
import { ObjectCache } from '../../cache/object-cache';
import type { SourceFactory } from '../../cache/source';
import { UpstreamMonitor } from '../../cache/upstream';
import { ServedVersions } from '../../kube/api-versions';
import { readGlobals, type Globals } from '../../views/globals';
import { ModelRegistry } from '../../views/model-registry';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one shared cache of the management cluster (one watch per kind and namespace). */
    cache: ObjectCache;
    /** Cluster view models kept current from the cache, shared by REST and the stream. */
    views: ModelRegistry;
    /** The versions catalog and the provider's version, as of now. */
    globals(): Globals;
    /** The list+watch sources the cache uses (one shared informer factory), for other watches. */
    sources: SourceFactory;
    /** Whether the management cluster is reachable, as the watches see it (issue 10 item 4). */
    upstream: UpstreamMonitor;
    /** The version of each Cluster API group the console speaks, from discovery (issue 23). */
    apiVersions: ServedVersions;
    /**
     * Every watch continues with this kubeconfig and relists now: it changed, so the server may
     * not be the one whose resourceVersions the cache holds (a cluster re-created without state).
     */
    watchWithKubeConfig(kc: KubeConfig): void;
    /**
     * Resolves once every cache has listed (at once when it has); waits at most CACHE_SYNC_WAIT,
     * then throws a 503 with Retry-After (issue 14: a read right after start answered 404 for a
     * cluster not yet listed, or a pool without its machines).
     */
    whenSynced(): Promise<void>;
  }
}

/** How long the first discovery may delay the start; after it, the hub's versions are spoken. */
const FIRST_DISCOVERY_WAIT_MS = 5_000;

export default fp<{ sources?: SourceFactory; versions?: ServedVersions }>(
  async (app, opts) => {
    const apiVersions =
      opts.versions ??
      new ServedVersions(app.kube.own, {
        recheckMs: app.config.discoveryRecheckMs,
        onError: (error, group) => {
          app.log.warn({ err: error, group }, 'cannot read the served versions of an API group');
        },
      });
    // An unreachable server must not keep the console from starting (it reports the outage):
    // discovery goes on in the background and moves the watches when it answers.
    const firstDiscovery = apiVersions.start();
    await Promise.race([
      firstDiscovery,
      new Promise((r) => setTimeout(r, FIRST_DISCOVERY_WAIT_MS).unref()),
    ]);
    let factory: InformerFactory | undefined;
    let sources = opts.sources;
    if (!sources) {
      factory = new InformerFactory(app.kube.connection.kubeConfig, {
        staleAfterMs: app.config.informerStaleAfterMs,
        // Issue 23: the cache holds the console's one model, whatever version a watch speaks.
        // One it cannot convert is left out of the cache (the informer's 'transform' phase),
        // named here, and the kind's stream goes on.
        transform: (o) => {
          try {
            return asHub(o);
          } catch (error) {
            const { namespace, name } = o.metadata ?? {};
            app.metrics.invalidObjects.inc({ kind: o.kind ?? '' });
            throw new Error(`${o.kind} ${namespace ?? ''}/${name ?? ''}: ${String(error)}`, {
              cause: error,
            });
          }
        },
        onError: (error, info) => {
          if (info.phase === 'transform') {
            app.log.warn(
              { problem: error.message.slice(0, 500), resource: info.resource },
              "object cannot be read in the console's model; left out",
            );
            return;
          }
          app.log.warn({ err: error, ...info }, 'informer error');
          // 404 on a watch of a served kind: its version may no longer be served (an upgrade).
          if (error instanceof ApiError && error.statusCode === 404) apiVersions.recheckSoon();
        },
        // A server that sends no bookmarks makes a healthy watch on a quiet kind silent, and
        // the informer restarts it from the same resourceVersion: routine, counted in
        // dcs_bff_informer_quiet_restarts, not worth a warning each time (issue 13 item 6).
        onStale: (info) => {
          app.log.debug(info, 'informer watch was silent; resumed');
        },
        onRelist: (info) => {
          if (info.reason !== 'initial') app.log.info(info, 'informer relisted');
        },
      });
      sources = informerSources(factory);
    }
    const cache = new ObjectCache(
      sources,
      app.config.namespaces,
      {
        onInvalid: (kind, key, message) => {
          app.metrics.invalidObjects.inc({ kind });
          app.log.warn(
            { kind, key, problem: message.slice(0, 500) },
            'object failed its schema; left out',
          );
        },
        onListenerError: (error) => {
          app.log.error({ err: error }, 'cache listener failed');
        },
      },
      apiVersions.choice,
    );
    apiVersions.onChange((choice, previous) => {
      app.log.info({ versions: choice, previous }, 'served API versions changed; moving watches');
      cache.useVersions(choice).catch((error: unknown) => {
        app.log.error({ err: error }, 'could not move the watches to the served versions');
      });
    });
    // Read once per version of the catalog and provider objects, not once per view or request.
    let memo: { key: string; value: Globals } | undefined;
    const globals = () => {
      const cm = cache.stores.ConfigMap.list().map((o) => o.metadata.resourceVersion ?? '');
      const dep = cache.stores.Deployment.list().map((o) => o.metadata.resourceVersion ?? '');
      const key = `${cm.join(',')}|${dep.join(',')}`;
      if (memo?.key !== key) memo = { key, value: readGlobals(cache, app.config.providerVersion) };
      return memo.value;
    };
    const views = new ModelRegistry(cache, {
      context: () => {
        const g = globals();
        return {
          versions: g.versions,
          ...(g.providerVersion !== undefined ? { providerVersion: g.providerVersion } : {}),
          // T-1 on the wall clock; also what the stream's recheck timers are computed from.
          diagnosis: { stuckAfterMs: app.config.stuckAfterMs },
        };
      },
    });
    app.decorate('cache', cache);
    app.decorate('views', views);
    app.decorate('globals', globals);
    app.decorate('sources', sources);
    app.decorate('apiVersions', apiVersions);
    app.decorate('whenSynced', async () => {
      if (cache.hasSynced()) return;
      try {
        await cache.waitForSync(AbortSignal.timeout(app.config.cacheSyncWaitMs));
      } catch {
        const pending = cache
          .health()
          .filter((h) => !h.hasSynced)
          .map((h) => h.kind);
        throw cacheNotSynced([...new Set(pending)]);
      }
    });
    app.decorate('watchWithKubeConfig', (kc: KubeConfig) => {
      factory?.useKubeConfig(kc);
    });
    cache.start();

    const upstream = new UpstreamMonitor(() => cache.health(), {
      downAfterMs: app.config.upstreamDownAfterMs,
    });
    upstream.onChange((status) => {
      if (status.state === 'disconnected') {
        app.log.warn(
          { since: status.since, reason: status.reason },
          'management cluster unreachable: serving cached data, refusing changes',
        );
      } else {
        app.log.info('management cluster reachable again');
      }
    });
    app.decorate('upstream', upstream);

    const registers = [app.metrics.registry];
    const health = () => cache.health();
    new Gauge({
      name: 'dcs_bff_informer_restarts',
      help: 'Watch restarts per informer (after the first watch)',
      labelNames: ['resource'],
      registers,
      collect() {
        for (const h of health()) this.set({ resource: h.resource }, h.restarts);
      },
    });
    new Gauge({
      name: 'dcs_bff_informer_quiet_restarts',
      help: 'Watches resumed because they were silent (no event, no bookmark); not failures',
      labelNames: ['resource'],
      registers,
      collect() {
        for (const h of health()) this.set({ resource: h.resource }, h.staleRestarts);
      },
    });
    new Gauge({
      name: 'dcs_bff_informer_failing_seconds',
      help: 'How long an informer has been failing without a break (0 when healthy)',
      labelNames: ['resource'],
      registers,
      collect() {
        const now = Date.now();
        for (const h of health()) {
          this.set(
            { resource: h.resource },
            h.failingSince > 0 ? (now - h.failingSince) / 1000 : 0,
          );
        }
      },
    });
    new Gauge({
      name: 'dcs_bff_upstream_up',
      help: 'Whether the management cluster is reachable as the watches see it (UPSTREAM_DOWN_AFTER)',
      registers,
      collect() {
        this.set(upstream.status().state === 'connected' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'dcs_bff_informer_relists',
      help: 'Relists after 410 Gone per informer',
      labelNames: ['resource'],
      registers,
      collect() {
        for (const h of health()) this.set({ resource: h.resource }, h.relists);
      },
    });
    new Gauge({
      name: 'dcs_bff_informer_lag_seconds',
      help: 'Time since the newest sign that an informer is current (event, bookmark or list)',
      labelNames: ['resource'],
      registers,
      collect() {
        for (const h of health()) this.set({ resource: h.resource }, h.lagMs / 1000);
      },
    });
    new Gauge({
      name: 'dcs_bff_cache_objects',
      help: 'Objects in the cache per kind',
      labelNames: ['kind'],
      registers,
      collect() {
        for (const [kind, store] of Object.entries(cache.stores)) this.set({ kind }, store.size);
      },
    });
    new Gauge({
      name: 'dcs_bff_upstream_watches',
      help: 'Upstream LIST+WATCH loops: one per (kind, namespace), whatever the number of users',
      registers,
      collect() {
        this.set(cache.watchCount);
      },
    });
    new Gauge({
      name: 'dcs_bff_view_models',
      help: 'Cluster view models kept current',
      registers,
      collect() {
        this.set(views.size);
      },
    });

    app.addHook('onClose', async () => {
      apiVersions.stop();
      upstream.stop();
      views.close();
      await cache.stop();
      await factory?.stop();
    });
  },
  { name: 'cache', dependencies: ['config', 'metrics', 'kube'] },
);
