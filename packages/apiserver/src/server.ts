/**
 * startApiServer: wires storage, persistence, admission, RBAC, the garbage collector and the
 * HTTP(S) front end together, and returns the handle its caller uses to reach it.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { Admission } from './admission';
import { Authenticator } from './auth/authn';
import { OidcAuthenticator, type OidcOptions } from './auth/oidc';
import { escalationHook } from './auth/escalation';
import { ImpersonationHeaderError, impersonate } from './auth/impersonation';
import { RbacAuthorizer, forbiddenReason, type Attributes } from './auth/rbac';
import { builtinKinds, SYSTEM_NAMESPACES } from './builtin/kinds';
import { AUTOUPDATE_ANNOTATION, bootstrapPolicy } from './builtin/policy';
import {
  createCertificateAuthority,
  createServingCertificate,
  type CertificateAuthority,
} from './certs';
import { GarbageCollector } from './gc';
import { persistentTls } from './identity';
import { clone, deepEqual } from './json';
import { handleResource, type HandlerContext } from './http/resources';
import { PUBLIC_PATHS, handleNonResource } from './http/non-resource';
import { requestInfo } from './http/request-info';
import { DEFAULT_WATCH_BACKLOG, WatchFlusher } from './http/watch';
import { sendStatus } from './http/respond';
import { buildKubeconfig, type KubeconfigContext } from './kubeconfig';
import { OpenApi } from './openapi';
import { Operations, type DeleteOptions, type PatchType, type WriteContext } from './operations';
import { DEFAULT_EVENT_TTL_MS, EventExpiry } from './event-ttl';
import { Persistence } from './persistence';
import { Registry, resolveKind, type ResourceType } from './registry';
import { ApiError, badRequest, forbidden, toApiError, unauthorized } from './status';
import { evictPod } from './builtin/eviction';
import { Store } from './store/store';
import type { AdmissionHook, AnyKindRegistration, KubeObject, TokenEntry, UserInfo } from './types';
import {
  ConversionError,
  isMultiVersion,
  migrateStorageVersion,
  resolveVersions,
  updateKind,
} from './versions';

export interface ApiServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** HTTPS with a generated CA (default), or with a given CA; `false` serves plain HTTP (loopback only). */
  tls?: boolean | { ca: CertificateAuthority };
  /** Kinds with one version (`version`) or several (`versions`, a CRD's `spec.versions`). */
  kinds?: readonly AnyKindRegistration[];
  admission?: readonly AdmissionHook[];
  tokens?: readonly TokenEntry[];
  /** Serve requests without credentials as system:anonymous (off by default). */
  anonymous?: boolean;
  /** Trust an OpenID provider's ID tokens as kube-apiserver's `--oidc-*` flags do (auth/oidc.ts). */
  oidc?: OidcOptions;
  /** Persist every acknowledged write to this file and resume from it. */
  statePath?: string;
  /** How often a watch that asked for bookmarks gets one (default 5 s; at most 10 s as promised). */
  bookmarkIntervalMs?: number;
  /**
   * Watch lines are coalesced into one socket write per watcher at most this often while events
   * keep coming (default 10 ms); an event after a quiet spell is written at the end of its I/O
   * turn. Each write is a syscall that also runs the receiver's loopback TCP path: at 100
   * watchers of a kind changing 500 times a second, batching 5 events per write is what keeps
   * the fan-out within a fraction of a core, for at most 10 ms of added delay.
   */
  watchFlushIntervalMs?: number;
  /**
   * A watch whose client does not keep up is ended, as kube-apiserver's cacher ends it, once more
   * than `watchMaxBufferedEvents` live events (default 200) or `watchMaxBufferedBytes` of them
   * (default 1 MiB) have waited in its socket for longer than `watchUnresponsiveGraceMs`
   * (default 500 ms), so that slow clients cannot hold the server's memory; the client sees its
   * stream end and re-watches from its last resourceVersion (`WatchBacklogLimits`).
   */
  watchMaxBufferedBytes?: number;
  watchMaxBufferedEvents?: number;
  watchUnresponsiveGraceMs?: number;
  /** Events kept per kind for watch resumption (default 10,000); older resourceVersions get 410. */
  watchHistorySize?: number;
  /**
   * Of those, events older than this are dropped beyond the latest 100 of their kind (default
   * 75 s, kube-apiserver's watch cache `eventFreshDuration`; 0 keeps all `watchHistorySize`): a
   * watch from a resourceVersion older than what is kept gets 410 and relists, as upstream.
   */
  watchHistoryFreshMs?: number;
  /**
   * How long an Event is kept after its last write (kube-apiserver's `--event-ttl`, default one
   * hour); 0 keeps Events forever. Expired Events are deleted (watchers see DELETED) by a sweep
   * every `eventSweepIntervalMs` (default a minute, or the TTL when shorter) and by `expireEvents`.
   */
  eventTtlMs?: number;
  eventSweepIntervalMs?: number;
  /** The time the server goes by, in milliseconds since the epoch (default `Date.now`; tests). */
  now?: () => number;
  /** Namespaces to create at start besides default, kube-system, kube-public, kube-node-lease. */
  namespaces?: readonly string[];
}

/** Server-side access for seeding and tests; every call takes the same path as an HTTP write. */
export interface ServerClient {
  create(obj: KubeObject, opts?: { dryRun?: boolean }): Promise<KubeObject>;
  update(obj: KubeObject, opts?: { subresource?: 'status' }): Promise<KubeObject>;
  patch(
    ref: ObjectRef,
    type: PatchType,
    patch: unknown,
    opts?: { subresource?: 'status' | 'scale'; fieldManager?: string; force?: boolean },
  ): Promise<KubeObject>;
  apply(obj: KubeObject, fieldManager: string, opts?: { force?: boolean }): Promise<KubeObject>;
  delete(ref: ObjectRef, opts?: DeleteOptions): Promise<KubeObject>;
  get(ref: ObjectRef): KubeObject | undefined;
  list(apiVersion: string, kind: string, namespace?: string): KubeObject[];
  /**
   * POSTs a policy/v1 Eviction for the Pod `namespace/name` (the `pods/eviction` subresource's
   * path): resolves when the Pod is being deleted, throws the ApiError the HTTP API would answer
   * (429 with the DisruptionBudget cause when a budget refuses, 500 with more than one budget).
   */
  evict(
    namespace: string,
    name: string,
    opts?: { gracePeriodSeconds?: number; dryRun?: boolean },
  ): Promise<void>;
}

export interface ObjectChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface ApiServer {
  url: string;
  port: number;
  host: string;
  /** PEM of the CA (HTTPS only). */
  caPem: string | undefined;
  /** A kubeconfig (YAML) with one context per token. */
  kubeconfig(
    contexts: readonly KubeconfigContext[],
    opts?: { clusterName?: string; currentContext?: string },
  ): string;
  client: ServerClient;
  /** Acting as another user (admission sees it; authorization is not applied server-side). */
  clientAs(user: UserInfo): ServerClient;
  addToken(t: TokenEntry): void;
  /** The current resourceVersion (etcd's revision). */
  readonly resourceVersion: number;
  /** Watches open now, over every kind (what benchmarks compare: one per client, or constant). */
  watchCount(): number;
  /** Resolves when the garbage collector has nothing queued. */
  settled(): Promise<void>;
  /**
   * Calls `fn` after every committed change (in process, synchronously after the commit, before
   * any watcher is written to): the kind and key of what changed. The result stops it.
   */
  onChange(fn: (change: ObjectChange) => void): () => void;
  /** Deletes the Events whose TTL has run out now (`eventTtlMs`); returns how many. */
  expireEvents(): number;
  /**
   * Redefines a registered kind, as an update of its CRD does: versions added, removed or no
   * longer served, the storage version moved, schemas, columns and conversion replaced.
   * Requests to a version no longer served are 404 from now on; discovery and OpenAPI change at
   * once; every open watch of the kind (in any version) ends, as kube-apiserver tears down a
   * CRD's storage on update, and its clients re-watch from their last resourceVersion. Objects
   * stay in the version they were stored in until written. Throws (and changes nothing) when
   * the registration is invalid or drops a version objects are still stored in.
   */
  updateKind(registration: AnyKindRegistration): void;
  /**
   * The apiVersions objects of a kind are stored in now (a CRD's `status.storedVersions`, but
   * exact: only versions that hold objects), sorted.
   */
  storedVersions(group: string, plural: string): string[];
  /**
   * Rewrites every object of a kind stored in an older version in the storage version, as
   * kube-storage-version-migrator (and clusterctl's CRD migration on upgrade) does: an update
   * that changes nothing, through admission, with a new resourceVersion and a MODIFIED event.
   * Retried on conflict. Resolves with how many objects were rewritten; afterwards the older
   * versions can be dropped by `updateKind`.
   */
  migrateStorageVersion(group: string, plural: string): Promise<number>;
  close(): Promise<void>;
}

const SYSTEM: UserInfo = {
  username: 'system:apiserver',
  groups: ['system:masters', 'system:authenticated'],
};

export async function startApiServer(options: ApiServerOptions = {}): Promise<ApiServer> {
  const host = options.host ?? '127.0.0.1';
  const useTls = options.tls !== false;
  if (!useTls && !['127.0.0.1', '::1', 'localhost'].includes(host)) {
    throw new Error('plain HTTP is served on loopback only');
  }
  const registry = new Registry();
  for (const rt of builtinKinds()) registry.add(rt);
  for (const k of options.kinds ?? []) {
    if (!isMultiVersion(k)) {
      registry.add(resolveKind(k));
      continue;
    }
    const { set, served } = resolveVersions(k);
    registry.addVersions(set, served);
  }

  const freshMs = options.watchHistoryFreshMs ?? 75_000;
  const store = new Store(
    options.watchHistorySize ?? 10_000,
    0,
    freshMs > 0 ? { windowMs: freshMs, keep: 100, now: options.now ?? Date.now } : undefined,
  );
  const persistence = options.statePath
    ? await Persistence.open(options.statePath, store, registry)
    : undefined;
  const admission = new Admission([...(options.admission ?? [])]);
  const ops = new Operations(
    registry,
    store,
    admission,
    () => persistence?.durable() ?? Promise.resolve(),
  );
  const gc = new GarbageCollector(store, registry, ops);
  const eventTtlMs = options.eventTtlMs ?? DEFAULT_EVENT_TTL_MS;
  const events =
    eventTtlMs > 0
      ? new EventExpiry(store, registry, eventTtlMs, options.now ?? Date.now)
      : undefined;
  events?.start(options.eventSweepIntervalMs ?? Math.min(60_000, eventTtlMs));
  const authn = new Authenticator(
    options.tokens ?? [],
    options.anonymous ?? false,
    options.oidc ? new OidcAuthenticator(options.oidc) : undefined,
  );
  const rbacType = (plural: string): ResourceType => {
    const rt = registry.lookup('rbac.authorization.k8s.io', 'v1', plural);
    if (!rt) throw new Error(`built-in ${plural} missing`);
    return rt;
  };
  const rbac = new RbacAuthorizer({
    clusterRoleBindings: () => store.list(rbacType('clusterrolebindings')).map((s) => s.object()),
    roleBindings: (ns) => store.list(rbacType('rolebindings'), ns).map((s) => s.object()),
    clusterRole: (name) => store.get(rbacType('clusterroles'), undefined, name)?.object(),
    role: (ns, name) => store.get(rbacType('roles'), ns, name)?.object(),
  });
  store.listen((ev) => {
    if (ev.obj.rt.group === 'rbac.authorization.k8s.io') rbac.invalidate();
  });
  // Writing RBAC objects cannot grant more than the writer holds (auth/escalation.ts).
  admission.add(escalationHook(rbac));
  const openapi = new OpenApi(registry);

  const clientAs = (user: UserInfo): ServerClient => {
    const ctx = (dryRun = false, fieldManager = 'apiserver-seed'): WriteContext => ({
      user,
      dryRun,
      fieldValidation: 'Strict',
      warnings: [],
      fieldManager,
    });
    const typeOf = (apiVersion: string, kind: string): ResourceType => {
      const rt = registry.byApiVersionKind(apiVersion, kind);
      if (!rt) throw badRequest(`no kind "${kind}" is registered for version "${apiVersion}"`);
      return rt;
    };
    // Like kubectl, a namespaced object without a namespace goes to "default".
    const nsFor = (apiVersion: string, kind: string, ns: string | undefined) =>
      typeOf(apiVersion, kind).scope === 'Namespaced' ? (ns ?? 'default') : undefined;
    // The caller keeps its objects: the write path takes ownership of what it is given.
    return {
      create: async (obj, o) =>
        (
          await ops.create(
            typeOf(obj.apiVersion, obj.kind),
            nsFor(obj.apiVersion, obj.kind, obj.metadata.namespace),
            clone(obj),
            ctx(o?.dryRun),
          )
        ).object(),
      update: async (obj, o) =>
        (
          await ops.update(
            typeOf(obj.apiVersion, obj.kind),
            nsFor(obj.apiVersion, obj.kind, obj.metadata.namespace),
            obj.metadata.name ?? '',
            clone(obj),
            ctx(),
            o?.subresource ?? '',
          )
        ).object(),
      patch: async (ref, type, patch, o) =>
        (
          await ops.patch(
            typeOf(ref.apiVersion, ref.kind),
            nsFor(ref.apiVersion, ref.kind, ref.namespace),
            ref.name,
            type,
            clone(patch),
            ctx(false, o?.fieldManager),
            o?.subresource ?? '',
            o?.force ?? false,
          )
        ).object(),
      apply: async (obj, manager, o) =>
        (
          await ops.patch(
            typeOf(obj.apiVersion, obj.kind),
            nsFor(obj.apiVersion, obj.kind, obj.metadata.namespace),
            obj.metadata.name ?? '',
            'apply',
            clone(obj),
            ctx(false, manager),
            '',
            o?.force ?? false,
          )
        ).object(),
      delete: async (ref, o) =>
        (
          await ops.delete(
            typeOf(ref.apiVersion, ref.kind),
            nsFor(ref.apiVersion, ref.kind, ref.namespace),
            ref.name,
            o ?? {},
            ctx(),
          )
        ).obj,
      get: (ref) =>
        store
          .get(
            typeOf(ref.apiVersion, ref.kind),
            nsFor(ref.apiVersion, ref.kind, ref.namespace),
            ref.name,
          )
          ?.object(),
      list: (apiVersion, kind, namespace) =>
        store.list(typeOf(apiVersion, kind), namespace).map((s) => s.object()),
      evict: async (namespace, name, o) => {
        const answer = await evictPod(
          { registry, store, ops },
          typeOf('v1', 'Pod'),
          namespace,
          name,
          {
            apiVersion: 'policy/v1',
            kind: 'Eviction',
            metadata: { name, namespace },
            ...(o?.gracePeriodSeconds !== undefined
              ? { deleteOptions: { gracePeriodSeconds: o.gracePeriodSeconds } }
              : {}),
          },
          ctx(o?.dryRun),
        );
        if (answer.code >= 300) {
          const message = typeof answer.body.message === 'string' ? answer.body.message : '';
          throw new ApiError(answer.code, '', message);
        }
      },
    };
  };
  const client = clientAs(SYSTEM);

  // What a fresh cluster has; on restart from a state file only what is missing is created.
  for (const name of [...SYSTEM_NAMESPACES, ...(options.namespaces ?? [])]) {
    if (!client.get({ apiVersion: 'v1', kind: 'Namespace', name })) {
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    }
  }
  // Bootstrap roles are reconciled on every start, as kube-apiserver does: a state file written
  // by an older version (whose `view` granted Secrets) gets today's rules, unless an operator
  // opted out with the autoupdate annotation.
  const customGroups = (options.kinds ?? []).map((k) => k.group).filter((g) => g !== '');
  for (const obj of bootstrapPolicy(customGroups)) {
    const ref = { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name ?? '' };
    const live = client.get(ref);
    if (!live) {
      await client.create(obj);
      continue;
    }
    if (live.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false') continue;
    const field = obj.kind === 'ClusterRole' ? 'rules' : 'subjects';
    const same =
      deepEqual(live[field], obj[field]) &&
      (obj.kind === 'ClusterRole' || deepEqual(live.roleRef, obj.roleRef));
    if (same) continue;
    await client.update({
      ...live,
      [field]: obj[field],
      ...(obj.roleRef ? { roleRef: obj.roleRef } : {}),
    });
  }

  let caPem: string | undefined;
  let server: Server;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    void handle(req, res);
  };
  if (useTls) {
    const givenCa = typeof options.tls === 'object' ? options.tls.ca : undefined;
    // With a state file the CA and serving key are kept too: a restart is the same cluster.
    const serving = options.statePath
      ? await persistentTls(`${options.statePath}.tls.json`, [host], givenCa)
      : await createServingCertificate(givenCa ?? (await createCertificateAuthority()), [host]);
    caPem = serving.caPem;
    server = createHttpsServer({ key: serving.keyPem, cert: serving.certPem }, handler);
  } else {
    server = createHttpServer(handler);
  }
  server.keepAliveTimeout = 65_000;
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const watches = new Set<() => void>();
  let serverAddress = '';

  const ctx: HandlerContext = {
    registry,
    store,
    ops,
    rbac,
    bookmarkIntervalMs: Math.min(options.bookmarkIntervalMs ?? 5000, 10_000),
    watchFlusher: new WatchFlusher(options.watchFlushIntervalMs ?? 10),
    watchBacklog: {
      events: options.watchMaxBufferedEvents ?? DEFAULT_WATCH_BACKLOG.events,
      bytes: options.watchMaxBufferedBytes ?? DEFAULT_WATCH_BACKLOG.bytes,
      graceMs: options.watchUnresponsiveGraceMs ?? DEFAULT_WATCH_BACKLOG.graceMs,
    },
    trackWatch: (finish) => {
      watches.add(finish);
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const path = url.pathname;
      if (PUBLIC_PATHS.has(path)) {
        handleNonResource(req, res, path, registry, openapi, serverAddress);
        return;
      }
      const authenticated = await authn.authenticate(req);
      if (!authenticated) throw unauthorized();
      const user = impersonate(req, authenticated, rbac);
      const info = requestInfo(req.method ?? 'GET', path, url.searchParams);
      const attrs: Attributes = info.isResource
        ? {
            user,
            verb: info.verb,
            resourceRequest: true,
            apiGroup: info.group,
            resource: info.resource,
            subresource: info.subresource,
            namespace: info.namespace,
            name: info.name,
            path,
          }
        : {
            user,
            verb: info.verb,
            resourceRequest: false,
            apiGroup: '',
            resource: '',
            subresource: '',
            namespace: '',
            name: '',
            path,
          };
      const decision = rbac.authorize(attrs);
      if (!decision.allowed) {
        if (!info.isResource)
          throw new ApiError(403, 'Forbidden', `forbidden: ${forbiddenReason(attrs)}`, {});
        throw forbidden(
          { group: info.group, resource: info.resource },
          info.name,
          forbiddenReason(attrs),
        );
      }
      if (info.isResource) {
        const finish = (f: () => void) => {
          ctx.trackWatch(f);
          res.on('close', () => watches.delete(f));
        };
        await handleResource(
          { ...ctx, trackWatch: finish },
          req,
          res,
          info,
          user,
          url.searchParams,
        );
      } else {
        handleNonResource(req, res, path, registry, openapi, serverAddress);
      }
    } catch (e) {
      if (e instanceof ImpersonationHeaderError) {
        // Upstream answers this one in plain text (responsewriters.InternalError), not a Status.
        res.writeHead(500, {
          'content-type': 'text/plain; charset=utf-8',
          'x-content-type-options': 'nosniff',
        });
        res.end(e.body());
        return;
      }
      const err = toApiError(e);
      if (e instanceof ConversionError) console.error(`apiserver: ${e.message}`);
      else if (err.code === 500) console.error('apiserver: internal error', e);
      // After a 413 the rest of an oversized body is not worth keeping the connection for.
      if (err.code === 413 && !res.headersSent) res.setHeader('connection', 'close');
      sendStatus(res, err);
    }
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    // Not serving after all: the state file is free for the next try (a port in use, say).
    events?.stop();
    await gc.idle();
    await persistence?.close();
    throw e;
  }
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  serverAddress = `${urlHost}:${port}`;
  const url = `${useTls ? 'https' : 'http'}://${serverAddress}`;

  return {
    url,
    port,
    host,
    caPem,
    kubeconfig: (contexts, o) =>
      buildKubeconfig({
        server: url,
        ...(caPem ? { caPem } : {}),
        contexts,
        ...(o?.clusterName ? { clusterName: o.clusterName } : {}),
        ...(o?.currentContext ? { currentContext: o.currentContext } : {}),
      }),
    client,
    clientAs,
    addToken: (t) => {
      authn.add(t);
    },
    get resourceVersion() {
      return store.resourceVersion;
    },
    watchCount: () => store.watcherCount(),
    onChange: (fn) =>
      store.listen((ev) => {
        fn({
          type: ev.type,
          apiVersion: ev.obj.rt.apiVersion,
          kind: ev.obj.rt.kind,
          namespace: ev.obj.namespace,
          name: ev.obj.name,
        });
      }),
    settled: () => gc.idle(),
    expireEvents: () => events?.sweep() ?? 0,
    updateKind: (registration) => {
      updateKind(registry, store, registration);
      openapi.invalidate();
    },
    storedVersions: (group, plural) => [...store.storedVersions(`${group}/${plural}`)].sort(),
    migrateStorageVersion: (group, plural) =>
      migrateStorageVersion(registry, store, ops, `${group}/${plural}`, {
        user: SYSTEM,
        dryRun: false,
        fieldValidation: 'Ignore',
        warnings: [],
        fieldManager: 'storage-version-migrator',
      }),
    close: async () => {
      events?.stop();
      for (const f of watches) f();
      watches.clear();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      });
      await gc.idle();
      await persistence?.close();
    },
  };
}
