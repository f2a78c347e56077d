import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { resourcePath, type KindInfo } from '@dcs/domain';

/**
 * The controllers' writes, over HTTP with the kubeconfig's credentials and TLS settings as
 * client-node applies them (`applyToHTTPSOptions`), on keep-alive connections. Objects travel as
 * plain JSON, as the informers deliver them (client-node's generated APIs would turn timestamps
 * into Date objects and drop fields they do not know). Every update carries the object's
 * resourceVersion, so a write based on a stale read fails with 409 instead of losing a change.
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
  private readonly agent: http.Agent;
  private options: Promise<https.RequestOptions> | undefined;

  constructor(
    private readonly kc: KubeConfig,
    private readonly fieldManager = 'dcs-simulator',
    maxSockets = 32,
  ) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('the kubeconfig has no current cluster');
    this.base = new URL(cluster.server);
    const agentOptions = { keepAlive: true, maxSockets };
    this.agent =
      this.base.protocol === 'https:'
        ? new https.Agent(agentOptions)
        : new http.Agent(agentOptions);
  }

  close(): void {
    this.agent.destroy();
  }

  get<T extends KubeObject>(
    info: KindInfo,
    namespace: string | undefined,
    name: string,
  ): Promise<T> {
    return this.request<T>('GET', resourcePath(info, namespace, name));
  }

  create<T extends KubeObject>(info: KindInfo, obj: T): Promise<T> {
    return this.request<T>('POST', this.path(info, obj.metadata.namespace), obj);
  }

  /** PUT with the object's resourceVersion as precondition. */
  update<T extends KubeObject>(info: KindInfo, obj: T): Promise<T> {
    return this.request<T>('PUT', this.path(info, obj.metadata.namespace, obj.metadata.name), obj);
  }

  /** PUT …/status with the object's resourceVersion as precondition. */
  updateStatus<T extends KubeObject>(info: KindInfo, obj: T): Promise<T> {
    const path = `${this.path(info, obj.metadata.namespace, obj.metadata.name)}/status`;
    return this.request<T>('PUT', path, obj);
  }

  patch<T extends KubeObject>(
    info: KindInfo,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    patch: unknown,
    subresource?: 'status',
  ): Promise<T> {
    const path = `${this.path(info, namespace, name)}${subresource ? `/${subresource}` : ''}`;
    return this.request<T>('PATCH', path, patch, PATCH_CONTENT_TYPE[type]);
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
    const out = await this.request<KubeObject>('DELETE', resourcePath(info, namespace, name), body);
    return out.kind === 'Status' ? undefined : out;
  }

  private path(info: KindInfo, namespace?: string, name?: string): string {
    return resourcePath(info, namespace, name);
  }

  private async requestOptions(): Promise<https.RequestOptions> {
    // Tokens from exec plugins expire; client-node refreshes them in applyToHTTPSOptions. A
    // static token or client certificate (the embedded cluster) is read once.
    const user = this.kc.getCurrentUser();
    const dynamic = Boolean(user?.exec ?? user?.authProvider);
    if (!this.options || dynamic) {
      this.options = (async () => {
        const o: https.RequestOptions = {};
        await this.kc.applyToHTTPSOptions(o);
        return o;
      })();
    }
    return this.options;
  }

  private async request<T>(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<T> {
    const options = await this.requestOptions();
    const url = new URL(this.base.pathname.replace(/\/$/, '') + path, this.base);
    if (method !== 'GET' && method !== 'DELETE')
      url.searchParams.set('fieldManager', this.fieldManager);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const transport = url.protocol === 'https:' ? https : http;
    this.counters.requests++;
    const verb = `${method} ${/\/([a-z]+)(?:\/[^/]+)?(\/status)?$/.exec(path)?.slice(1).join('') ?? path}`;
    this.counters.byVerb[verb] = (this.counters.byVerb[verb] ?? 0) + 1;
    const started = performance.now();
    return new Promise<T>((resolve, reject) => {
      const headers: Record<string, string> = {
        ...(options.headers as Record<string, string> | undefined),
        Accept: 'application/json',
      };
      if (payload !== undefined) {
        headers['Content-Type'] = contentType;
        headers['Content-Length'] = String(Buffer.byteLength(payload));
      }
      const req = transport.request(
        url,
        { ...options, agent: this.agent, method, headers, timeout: 30_000 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const took = performance.now() - started;
            this.counters.latencyMs += took;
            this.counters.maxLatencyMs = Math.max(this.counters.maxLatencyMs, took);
            const text = Buffer.concat(chunks).toString('utf8');
            const code = res.statusCode ?? 0;
            let parsed: unknown;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              parsed = undefined;
            }
            if (code >= 200 && code < 300) {
              resolve(parsed as T);
              return;
            }
            const status = (parsed ?? {}) as { reason?: string; message?: string };
            if (code === 409) this.counters.conflicts++;
            else this.counters.errors++;
            reject(
              new KubeError(
                code,
                status.reason ?? '',
                `${method} ${path}: ${String(code)} ${status.message ?? text}`,
              ),
            );
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out`)));
      req.on('error', (e) => {
        this.counters.errors++;
        reject(e);
      });
      req.end(payload);
    });
  }
}
