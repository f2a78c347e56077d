import http from 'node:http';
import https from 'node:https';
import type { ApiVersionChoice } from '@dcs/domain';
import type { KubeConfig } from '@kubernetes/client-node';
import { BadBearerToken, isToken68 } from '../auth/bearer';
import type { Connection } from './connection';
import { errorFromResponse, KubeApiError, unreachable } from './errors';

/**
 * A thin JSON client of the Kubernetes REST API bound to one credential. Every write the BFF makes
 * goes through a client bound to the requesting user, so the API server's RBAC and audit log see
 * the real user. Plain JSON in and out: no serializer rewrites fields (timestamps stay strings,
 * unknown fields survive), which keeps what we send identical to what the plan previewed.
 */

export type Credential =
  /** Local mode and the BFF's own identity: whatever the kubeconfig says (tokens, certs, exec). */
  | { kind: 'kubeconfig'; kubeConfig: KubeConfig }
  /** Token mode: the signed-in user's bearer token. */
  | { kind: 'token'; token: string };

export interface RequestOptions {
  query?: Record<string, string | undefined>;
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface KubeResponse {
  status: number;
  body: unknown;
}

export interface KubeClient {
  request(method: string, path: string, options?: RequestOptions): Promise<KubeResponse>;
  /** The bearer token of a token-mode client (to name its user when no review can). */
  readonly bearerToken?: string;
  /** The version each Cluster API group is spoken in (`kube/objects.ts`); absent: the hub's. */
  readonly apiVersions?: ApiVersionChoice;
}

/**
 * The same client, speaking these versions: one choice for the whole of a request, so that a
 * plan converted for them is sent in them even if discovery changes its mind meanwhile.
 */
export function speaking(client: KubeClient, apiVersions: ApiVersionChoice): KubeClient {
  return {
    request: (method, path, options) => client.request(method, path, options),
    ...(client.bearerToken !== undefined ? { bearerToken: client.bearerToken } : {}),
    apiVersions,
  };
}

/** Called after every request, for metrics: method, HTTP status (0 = no response), seconds. */
export type RequestObserver = (method: string, status: number, seconds: number) => void;

const DEFAULT_TIMEOUT_MS = 30_000;

export class RestClient implements KubeClient {
  constructor(
    private readonly connection: Connection,
    private readonly credential: Credential,
    private readonly observe?: RequestObserver,
  ) {}

  get bearerToken(): string | undefined {
    return this.credential.kind === 'token' ? this.credential.token : undefined;
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<KubeResponse> {
    const url = new URL(this.connection.server + path);
    for (const [k, v] of Object.entries(options.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, v);
    }
    const reqOptions = await this.#authOptions();
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string | number | string[]> = {
      ...flatHeaders(reqOptions.headers),
      Accept: 'application/json',
      ...(payload !== undefined
        ? {
            'Content-Type': options.contentType ?? 'application/json',
            'Content-Length': Buffer.byteLength(payload),
          }
        : {}),
    };
    const transport = url.protocol === 'https:' ? https : http;
    const started = process.hrtime.bigint();
    const done = (status: number) =>
      this.observe?.(method, status, Number(process.hrtime.bigint() - started) / 1e9);
    return new Promise<KubeResponse>((resolve, reject) => {
      const req = transport.request(
        url,
        {
          ...reqOptions,
          method,
          headers,
          agent: this.connection.agent,
          timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          ...(options.signal ? { signal: options.signal } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (e) => {
            done(0);
            reject(e instanceof KubeApiError ? e : unreachable(method, path, e));
          });
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            done(status);
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown;
            try {
              body = text === '' ? undefined : (JSON.parse(text) as unknown);
            } catch {
              body = text;
            }
            if (status >= 200 && status < 300) resolve({ status, body });
            else reject(errorFromResponse(status, body));
          });
        },
      );
      req.on('timeout', () =>
        req.destroy(new KubeApiError(504, 'Timeout', `${method} ${path}: timed out`)),
      );
      req.on('error', (e) => {
        done(0);
        // An abort by the caller stays what it is; every other failure means no answer came.
        reject(
          e instanceof KubeApiError || e.name === 'AbortError' ? e : unreachable(method, path, e),
        );
      });
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  async #authOptions(): Promise<https.RequestOptions> {
    if (this.credential.kind === 'token') {
      if (!isToken68(this.credential.token)) throw new BadBearerToken();
      return {
        ...this.connection.tls,
        headers: { Authorization: `Bearer ${this.credential.token}` },
      };
    }
    const opts: https.RequestOptions = {};
    // client-node applies CA, client certificates, tokens, exec/OIDC plugins and impersonation.
    await this.credential.kubeConfig.applyToHTTPSOptions(opts);
    // It also makes a fresh agent per call; ours is shared and keeps connections alive.
    delete opts.agent;
    opts.rejectUnauthorized ??= true;
    return opts;
  }
}

function flatHeaders(headers: http.OutgoingHttpHeaders | readonly string[] | undefined) {
  const out: Record<string, string | number | string[]> = {};
  if (!headers || Array.isArray(headers)) return out;
  for (const [k, v] of Object.entries(headers as http.OutgoingHttpHeaders)) {
    if (v !== undefined) out[k] = v;
  }
  return out;
}
