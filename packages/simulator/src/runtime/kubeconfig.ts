import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { dirname, isAbsolute, join } from 'node:path';
import type { KubeConfigLike } from '@dcs/informer';
import { parse } from 'yaml';

/**
 * The controllers' kubeconfig. Importing `@kubernetes/client-node` loads every generated API
 * module it has (its config module imports them all): about 115 MiB of RSS in a process run
 * through tsx (heap strings of module sources and source maps, compiled code), a third of the
 * controllers' budget (issue 14: ≤ 400 MiB at 5,000 machines). The controllers need only the
 * server URL and the credentials, so a kubeconfig that uses nothing but a bearer token, client
 * certificates and CA data (what the embedded cluster and most clusters write) is applied here,
 * with client-node's semantics (`applyToHTTPSOptions`: CA, client certificate and key, server
 * name, skip-verify, `Authorization: Bearer`). Anything else (exec and auth-provider plugins,
 * token files, basic auth, impersonation, proxies) loads client-node and uses its `KubeConfig`,
 * so every kubeconfig client-node accepts still works.
 */

export interface ControllerKubeConfig extends KubeConfigLike {
  /** The current user; `exec`/`authProvider` users get fresh credentials per request. */
  getCurrentUser(): { readonly exec?: unknown; readonly authProvider?: unknown } | null;
}

export type KubeConfigSource = { file: string } | { text: string };

/** The fields this module applies itself; any other one hands the kubeconfig to client-node. */
const CLUSTER_FIELDS = new Set([
  'server',
  'certificate-authority',
  'certificate-authority-data',
  'insecure-skip-tls-verify',
  'tls-server-name',
  'extensions',
]);
const USER_FIELDS = new Set([
  'token',
  'client-certificate',
  'client-certificate-data',
  'client-key',
  'client-key-data',
  'extensions',
]);

interface Named {
  name?: unknown;
  cluster?: Record<string, unknown>;
  user?: Record<string, unknown>;
  context?: Record<string, unknown>;
}

/** The current context's cluster and user when this module can apply them itself, else undefined. */
export function simpleKubeConfig(
  text: string,
  baseDir: string | undefined,
  context?: string,
): ControllerKubeConfig | undefined {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch {
    return undefined; // client-node reports the error in its words
  }
  if (typeof doc !== 'object' || doc === null) return undefined;
  const d = doc as Record<string, unknown>;
  const find = (list: unknown, name: unknown): Named | undefined =>
    Array.isArray(list)
      ? (list as unknown[]).find(
          (e): e is Named => typeof e === 'object' && e !== null && (e as Named).name === name,
        )
      : undefined;
  const ctx = find(d.contexts, context ?? d['current-context'])?.context;
  const cluster = find(d.clusters, ctx?.cluster)?.cluster;
  const user = find(d.users, ctx?.user)?.user ?? {};
  if (!ctx || !cluster || typeof cluster.server !== 'string') return undefined;
  if (Object.keys(ctx).some((k) => k !== 'cluster' && k !== 'user' && k !== 'namespace'))
    return undefined;
  if (Object.keys(cluster).some((k) => !CLUSTER_FIELDS.has(k))) return undefined;
  if (Object.keys(user).some((k) => !USER_FIELDS.has(k))) return undefined;
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
  const file = (v: unknown): string | undefined => {
    const f = str(v);
    return f && baseDir && !isAbsolute(f) ? join(baseDir, f) : f;
  };
  return new SimpleKubeConfig({
    server: cluster.server,
    skipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
    tlsServerName: str(cluster['tls-server-name']),
    caFile: file(cluster['certificate-authority']),
    caData: str(cluster['certificate-authority-data']),
    token: str(user.token),
    certFile: file(user['client-certificate']),
    certData: str(user['client-certificate-data']),
    keyFile: file(user['client-key']),
    keyData: str(user['client-key-data']),
  });
}

/** The kubeconfig for the controllers: applied here when simple, else client-node's `KubeConfig`. */
export async function loadKubeConfig(
  source: KubeConfigSource,
  context?: string,
): Promise<ControllerKubeConfig> {
  const text = 'text' in source ? source.text : readFileSync(source.file, 'utf8');
  const simple = simpleKubeConfig(
    text,
    'file' in source ? dirname(source.file) : undefined,
    context,
  );
  if (simple) return simple;
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  if ('file' in source) kc.loadFromFile(source.file);
  else kc.loadFromString(source.text);
  if (context) kc.setCurrentContext(context);
  return kc;
}

interface Settings {
  server: string;
  skipTLSVerify: boolean;
  tlsServerName: string | undefined;
  caFile: string | undefined;
  caData: string | undefined;
  token: string | undefined;
  certFile: string | undefined;
  certData: string | undefined;
  keyFile: string | undefined;
  keyData: string | undefined;
}

/** Whether a server URL names this machine (credentials in clear never leave it). */
function onLoopback(server: string): boolean {
  let host: string;
  try {
    host = new URL(server).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** client-node's `bufferFromFileOrString`: a file wins over inline base64 data. */
const material = (f: string | undefined, data: string | undefined): Buffer | undefined =>
  f ? readFileSync(f) : data ? Buffer.from(data, 'base64') : undefined;

class SimpleKubeConfig implements ControllerKubeConfig {
  private agent: http.Agent | undefined;

  constructor(private readonly s: Settings) {}

  getCurrentCluster(): { readonly server: string } {
    return { server: this.s.server };
  }

  getCurrentUser(): Record<string, never> {
    return {};
  }

  /** What client-node's `applyToHTTPSOptions` sets for such a kubeconfig, on one agent per kubeconfig. */
  applyToHTTPSOptions(options: https.RequestOptions): Promise<void> {
    const s = this.s;
    if (s.skipTLSVerify) options.rejectUnauthorized = false;
    if (s.tlsServerName) options.servername = s.tlsServerName;
    const ca = material(s.caFile, s.caData);
    const cert = material(s.certFile, s.certData);
    const key = material(s.keyFile, s.keyData);
    if (ca) options.ca = ca;
    if (cert) options.cert = cert;
    if (key) options.key = key;
    options.headers = {
      ...(options.headers as Record<string, string> | undefined),
      ...(s.token ? { Authorization: `Bearer ${s.token}` } : {}),
    };
    if (s.server.startsWith('http:') && !s.skipTLSVerify && !onLoopback(s.server)) {
      // client-node's rule, kept so that both paths accept the same kubeconfigs, except for a
      // plain-HTTP server on loopback: `pnpm sim --http` writes one (no TLS settings, as kubectl
      // reads it), and the BFF accepts it on loopback too (apps/bff kube/connection.ts).
      return Promise.reject(
        new Error('HTTP protocol is not allowed when skipTLSVerify is not set or false'),
      );
    }
    this.agent ??= s.server.startsWith('http:')
      ? new http.Agent({ keepAlive: true })
      : new https.Agent({
          keepAlive: true,
          ...(ca ? { ca } : {}),
          ...(cert ? { cert } : {}),
          ...(key ? { key } : {}),
          ...(s.tlsServerName ? { servername: s.tlsServerName } : {}),
          ...(s.skipTLSVerify ? { rejectUnauthorized: false } : {}),
        });
    options.agent = this.agent;
    return Promise.resolve();
  }
}
