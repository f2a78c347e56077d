import type https from 'node:https';
import {
  asHub,
  asServed,
  chooseApiVersion,
  isVersionedGroup,
  VERSIONED_GROUPS,
  resourcePath,
  type ApiVersionChoice,
  type KindInfo,
} from '@dcs/domain';
import { Pool } from 'undici';
import type { ControllerKubeConfig } from './kubeconfig';

/**
 * The controllers' writes, over HTTP with the kubeconfig's credentials and TLS settings as
 * client-node applies them (`applyToHTTPSOptions`), on a pool of keep-alive connections. Objects travel as
 * plain JSON, as the informers deliver them (client-node's generated APIs would turn timestamps
 * into Date objects and drop fields they do not know). Every update carries the object's
 * resourceVersion, so a write based on a stale read fails with 409 instead of losing a change.
 *
 * The controllers are written against the hub (issue 23): after `discoverVersions`, the Cluster
 * API kinds are read and written in the version the cluster serves (v1beta2 on Cluster API
 * ≥ v1.11, as upstream's controllers do), objects converted at this edge both ways. Merge patches
 * are sent as they are: they are only ever of metadata here, which no version renames.
 */

export class KubeError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'KubeError';
  }
}

export const isNotFound = (e: unknown): boolean => e instanceof KubeError && e.code === 404;
export const isConflict = (e: unknown): boolean => e instanceof KubeError && e.code === 409;
export const isAlreadyExists = (e: unknown): boolean =>
  e instanceof KubeError && e.code === 409 && e.reason === 'AlreadyExists';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name?: string | undefined;
    namespace?: string | undefined;
    uid?: string | undefined;
    resourceVersion?: string | undefined;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

export type PatchType = 'merge' | 'json' | 'strategic';
const PATCH_CONTENT_TYPE: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

export interface WriteCounters {
  requests: number;
  conflicts: number;
  errors: number;
  /** Requests per `METHOD resource[/subresource]`. */
  byVerb: Record<string, number>;
  /** Sum of request latencies (ms), for the average. */
  latencyMs: number;
  maxLatencyMs: number;
}

export class KubeClient {
  readonly counters: WriteCounters = {
    requests: 0,
    conflicts: 0,
    errors: 0,
    byVerb: {},
    latencyMs: 0,
    maxLatencyMs: 0,
  };
  private readonly base: URL;
  private pool: Promise<Pool> | undefined;
  private headers: Promise<Record<string, string>> | undefined;
  private readonly dynamicAuth: boolean;

  constructor(
    private readonly kc: ControllerKubeConfig,
    private readonly fieldManager = 'dcs-simulator',
    private readonly connections = 32,
  ) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('the kubeconfig has no current cluster');
    this.base = new URL(cluster.server);
    const user = kc.getCurrentUser();
    // Tokens from exec plugins and auth providers expire: client-node refreshes them per request.
    this.dynamicAuth = Boolean(user?.exec ?? user?.authProvider);
  }

  /** group → the version the Cluster API kinds are spoken in; the hub's until discovered. */
  versions: ApiVersionChoice = {};

  /**
   * Asks discovery which version of each Cluster API group to speak (the best of those served
   * that the conversion knows), as the controllers of that release would speak it.
   */
  async discoverVersions(): Promise<ApiVersionChoice> {
    const choice: Record<string, string> = {};
    for (const group of VERSIONED_GROUPS) {
      try {
        const body = await this.request<{ versions?: { version?: string }[] }>(
          'GET',
          `/apis/${group}`,
        );
        const served = (body.versions ?? []).flatMap((v) => (v.version ? [v.version] : []));
        const version = chooseApiVersion(group, served);
        if (version) choice[group] = version;
      } catch {
        // Not served at all: the informers say so, kind by kind.
      }
    }
    this.versions = choice;
    return choice;
  }

  /** `info` at the version spoken for its group. */
  at(info: KindInfo): KindInfo {
    if (!isVersionedGroup(info.group)) return info;
    const version = Object.hasOwn(this.versions, info.group)
      ? this.versions[info.group]
      : undefined;
    return version && version !== info.version ? { ...info, version } : info;
  }

  close(): void {
    void this.pool?.then((p) => p.close()).catch(() => undefined);
  }

  /**
   * The kinds of `kinds` the API server does not serve (discovery of each group/version, in the
   * version `at` speaks): a CRD that is not installed. Asked once, at start (issue 25), so that a
   * missing CRD is named instead of an informer looping on 404.
   */
  async missingKinds(kinds: readonly KindInfo[]): Promise<KindInfo[]> {
    const served = new Map<string, Promise<Set<string>>>();
    const resourcesOf = (groupVersion: string) => {
      let known = served.get(groupVersion);
      if (!known) {
        known = this.request<{ resources?: { name?: string }[] }>('GET', `/apis/${groupVersion}`)
          .then((b) => new Set((b.resources ?? []).flatMap((r) => (r.name ? [r.name] : []))))
          .catch((e: unknown) => {
            if (isNotFound(e)) return new Set<string>();
            throw e;
          });
        served.set(groupVersion, known);
      }
      return known;
    };
    const missing: KindInfo[] = [];
    for (const kind of kinds) {
      const info = this.at(kind);
      const resources = await resourcesOf(`${info.group}/${info.version}`);
      if (!resources.has(info.plural)) missing.push(info);
    }
    return missing;
  }

  get<T extends KubeObject>(
    info: KindInfo,
    namespace: string | undefined,
    name: string,
  ): Promise<T> {
    return this.request<T>('GET', resourcePath(this.at(info), namespace, name)).then(asHub);
  }

  create<T extends KubeObject>(info: KindInfo, obj: T): Promise<T> {
    return this.request<T>(
      'POST',
      resourcePath(this.at(info), obj.metadata.namespace),
      asServed(obj, this.versions),
    ).then(asHub);
  }

  /**
   * POST whose answer nobody reads (the Event recorder's): the body of a success is discarded
   * unread, not decoded; an error is thrown as by `create`. About one request in seven at the
   * benchmark's scale, each answered with the whole Event and its managed fields.
   */
  async createAndForget(info: KindInfo, obj: KubeObject): Promise<void> {
    await this.request(
      'POST',
      resourcePath(this.at(info), obj.metadata.namespace),
      asServed(obj, this.versions),
      undefined,
      true,
    );
  }

  /**
   * PUT with the object's resourceVersion as precondition. Without metadata.managedFields: the
   * API server keeps the live ones when an update omits them, so they need not travel back.
   */
  update<T extends KubeObject>(info: KindInfo, obj: T): Promise<T> {
    const { managedFields: _, ...metadata } = obj.metadata;
    return this.request<T>(
      'PUT',
      resourcePath(this.at(info), obj.metadata.namespace, obj.metadata.name),
      asServed({ ...obj, metadata }, this.versions),
    ).then(asHub);
  }

  /**
   * PUT …/status with the object's resourceVersion as precondition. A status update takes the
   * status from the request and everything else from the live object, so only the status and the
   * identifying metadata travel.
   */
  updateStatus<T extends KubeObject>(info: KindInfo, obj: T): Promise<T> {
    const { name, namespace, uid, resourceVersion } = obj.metadata;
    const path = `${resourcePath(this.at(info), namespace, name)}/status`;
    const body = {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      metadata: { name, namespace, uid, resourceVersion },
      status: obj.status,
    };
    return this.request<T>('PUT', path, asServed(body, this.versions)).then(asHub);
  }

  patch<T extends KubeObject>(
    info: KindInfo,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    patch: unknown,
    subresource?: 'status',
  ): Promise<T> {
    const path = `${resourcePath(this.at(info), namespace, name)}${subresource ? `/${subresource}` : ''}`;
    return this.request<T>('PATCH', path, patch, PATCH_CONTENT_TYPE[type]).then(asHub);
  }

  /** DELETE; resolves to the object as the server answers (undefined for a bare Status). */
  async delete(
    info: KindInfo,
    namespace: string | undefined,
    name: string,
    opts: { uid?: string; propagationPolicy?: 'Background' | 'Foreground' | 'Orphan' } = {},
  ): Promise<KubeObject | undefined> {
    const body = {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      ...(opts.uid ? { preconditions: { uid: opts.uid } } : {}),
      propagationPolicy: opts.propagationPolicy ?? 'Background',
    };
    const out = await this.request<KubeObject>(
      'DELETE',
      resourcePath(this.at(info), namespace, name),
      body,
    );
    return out.kind === 'Status' ? undefined : asHub(out);
  }

  /** The kubeconfig applied as client-node applies it: TLS material once, credentials per request when they expire. */
  private async authHeaders(): Promise<Record<string, string>> {
    if (!this.headers || this.dynamicAuth) {
      this.headers = (async () => {
        const o: https.RequestOptions = {};
        await this.kc.applyToHTTPSOptions(o);
        return { ...((o.headers ?? {}) as Record<string, string>) };
      })();
    }
    return this.headers;
  }

  /**
   * undici's connection pool rather than http.request: keep-alive connections with far less
   * work per request, which matters at thousands of writes a second.
   */
  private connect(): Promise<Pool> {
    this.pool ??= (async () => {
      const o: https.RequestOptions = {};
      await this.kc.applyToHTTPSOptions(o);
      const tls = {
        ...(o.ca ? { ca: o.ca as string } : {}),
        ...(o.cert ? { cert: o.cert as string } : {}),
        ...(o.key ? { key: o.key as string } : {}),
        ...(o.servername ? { servername: o.servername } : {}),
        rejectUnauthorized: o.rejectUnauthorized !== false,
      };
      return new Pool(this.base.origin, {
        connections: this.connections,
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
        ...(this.base.protocol === 'https:' ? { connect: tls } : {}),
      });
    })();
    return this.pool;
  }

  private async request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    contentType = 'application/json',
    discardSuccess = false,
  ): Promise<T> {
    const [pool, auth] = await Promise.all([this.connect(), this.authHeaders()]);
    const prefix = this.base.pathname.replace(/\/$/, '');
    const query =
      method !== 'GET' && method !== 'DELETE'
        ? `?fieldManager=${encodeURIComponent(this.fieldManager)}`
        : '';
    const headers: Record<string, string> = { ...auth, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = contentType;
    this.counters.requests++;
    const verb = `${method} ${/\/([a-z]+)(?:\/[^/]+)?(\/status)?$/.exec(path)?.slice(1).join('') ?? path}`;
    this.counters.byVerb[verb] = (this.counters.byVerb[verb] ?? 0) + 1;
    const started = performance.now();
    let code: number;
    let text: string;
    try {
      const res = await pool.request({
        path: `${prefix}${path}${query}`,
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      code = res.statusCode;
      if (discardSuccess && code >= 200 && code < 300) {
        await res.body.dump();
        text = '';
      } else {
        text = await res.body.text();
      }
    } catch (e) {
      this.counters.errors++;
      throw e instanceof Error ? new Error(`${method} ${path}: ${e.message}`, { cause: e }) : e;
    }
    const took = performance.now() - started;
    this.counters.latencyMs += took;
    this.counters.maxLatencyMs = Math.max(this.counters.maxLatencyMs, took);
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (code >= 200 && code < 300) return parsed as T;
    const status = (parsed ?? {}) as { reason?: string; message?: string };
    if (code === 409) this.counters.conflicts++;
    else this.counters.errors++;
    throw new KubeError(
      code,
      status.reason ?? '',
      `${method} ${path}: ${String(code)} ${status.message ?? text}`,
    );
  }
}
