import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';

/**
 * The one module that reads the environment and the command line. Everything else receives a
 * validated `Config`, so that tests build the app from plain objects and no setting is read twice.
 */

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const csv = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== ''),
);

const EnvSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  KUBECONFIG: z.string().optional(),
  KUBE_CONTEXT: z.string().optional(),
  /** Set by the kubelet in every pod: the in-cluster service account is used then. */
  KUBERNETES_SERVICE_HOST: z.string().optional(),
  AUTH_MODE: z.enum(['local', 'token']).optional(),
  /** Comma-separated base64 keys of 32 bytes; the first encrypts, all decrypt (rotation). */
  SESSION_KEYS: z.string().optional(),
  SESSION_KEYS_FILE: z.string().optional(),
  SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(8 * 3600),
  /** A reverse proxy in front signs users in and passes `Authorization: Bearer`. */
  TRUST_PROXY_AUTHORIZATION: bool.default(false),
  /** Passed to Fastify's trustProxy (X-Forwarded-*), e.g. `true` or a CIDR list. */
  TRUST_PROXY: z.string().optional(),
  ALLOWED_ORIGINS: csv.default([]),
  WATCH_NAMESPACES: csv.default([]),
  STATIC_DIR: z.string().optional(),
  PROVIDER_VERSION: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_REVIEW_TTL_SECONDS: z.coerce.number().int().min(0).max(60).default(60),
  SIGNIN_RATE_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  MUTATION_RATE_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(20_000).default(15_000),
  SSE_REPLAY_EVENTS: z.coerce.number().int().min(0).default(2_000),
  SSE_CLIENT_BUFFER: z.coerce.number().int().min(1).default(512),
  SSE_MAX_CLIENTS: z.coerce.number().int().min(1).default(10_000),
  /** At most one refresh-and-write per cluster this often: batches bursts into one write per tab. */
  SSE_BATCH_MS: z.coerce.number().int().min(0).max(200).default(100),
  INFORMER_STALE_AFTER_MS: z.coerce.number().int().min(0).default(90_000),
  /** Only for a development API server with a self-signed certificate: never the default. */
  ALLOW_INSECURE_TLS: bool.default(false),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
});

export type AuthMode = 'local' | 'token';

/** Where the BFF's own connection to the API server comes from. */
export type ConnectionSource =
  { kind: 'kubeconfig'; file: string; context?: string | undefined } | { kind: 'in-cluster' };

export interface Config {
  host: string;
  port: number;
  connection: ConnectionSource;
  /** The kubeconfig was written by the embedded simulator (the launcher says so). */
  embedded: boolean;
  authMode: AuthMode;
  sessionKeys: Buffer[];
  sessionTtlSeconds: number;
  trustProxyAuthorization: boolean;
  trustProxy: boolean | string;
  allowedOrigins: string[];
  /** Namespaces to watch; empty = all namespaces (one watch per kind). */
  namespaces: string[];
  staticDir: string | undefined;
  providerVersion: string | undefined;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  accessReviewTtlMs: number;
  signInRatePerMinute: number;
  mutationRatePerMinute: number;
  bodyLimitBytes: number;
  sse: {
    heartbeatMs: number;
    replayEvents: number;
    clientBuffer: number;
    maxClients: number;
    batchMs: number;
  };
  informerStaleAfterMs: number;
  allowInsecureTls: boolean;
  shutdownGraceMs: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

export const isLoopbackHost = (host: string): boolean => LOOPBACK.test(host);

/** A 32-byte key from base64 (or base64url); anything else is a configuration error. */
export function parseKey(text: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new ConfigError('a session key must be 32 bytes, base64-encoded');
  return key;
}

function sessionKeysOf(env: z.infer<typeof EnvSchema>, readFile: (f: string) => string): Buffer[] {
  const texts = [
    ...(env.SESSION_KEYS ?? '').split(','),
    ...(env.SESSION_KEYS_FILE ? readFile(env.SESSION_KEYS_FILE).split(/[\s,]+/) : []),
  ].filter((t) => t.trim() !== '');
  return texts.map(parseKey);
}

export interface LoadOptions {
  argv?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  readFile?: (file: string) => string;
}

/**
 * Reads the command line (`--kubeconfig FILE`, `--context NAME`, `--auth-mode`, `--host`,
 * `--port`, `--embedded`) over the environment, validates both and derives the defaults:
 * - local auth by default with the embedded cluster or a kubeconfig when bound to loopback;
 *   token auth otherwise (in a pod);
 * - local auth is refused on any address but loopback: it acts with the kubeconfig's identity;
 * - token auth needs session keys shared by every replica.
 */
export function loadConfig(options: LoadOptions = {}): Config {
  // The one place that reads the process environment.
  const rawEnv = options.env ?? process.env;
  // pnpm runs scripts in the package's folder; relative paths are the user's (INIT_CWD).
  const cwd = options.cwd ?? rawEnv.INIT_CWD ?? process.cwd();
  const readFile = options.readFile ?? ((f: string) => readFileSync(f, 'utf8'));
  const { values } = parseArgs({
    args: [...(options.argv ?? [])],
    options: {
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      'auth-mode': { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      embedded: { type: 'boolean' },
      'provider-version': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const merged: Record<string, string | undefined> = {
    ...rawEnv,
    ...(values.kubeconfig !== undefined ? { KUBECONFIG: values.kubeconfig } : {}),
    ...(values.context !== undefined ? { KUBE_CONTEXT: values.context } : {}),
    ...(values['auth-mode'] !== undefined ? { AUTH_MODE: values['auth-mode'] } : {}),
    ...(values.host !== undefined ? { HOST: values.host } : {}),
    ...(values.port !== undefined ? { PORT: values.port } : {}),
    ...(values['provider-version'] !== undefined
      ? { PROVIDER_VERSION: values['provider-version'] }
      : {}),
  };
  // Empty strings in the environment mean "unset", as shells and manifests write them.
  for (const [k, v] of Object.entries(merged)) if (v === '') merged[k] = undefined;
  const parsed = EnvSchema.safeParse(merged);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${detail}`);
  }
  const env = parsed.data;
  const embedded = values.embedded === true;

  // KUBECONFIG may list several files (kubectl merges them); the first is ours, as client-node's.
  const kubeconfigFile = env.KUBECONFIG?.split(':')[0];
  let connection: ConnectionSource;
  if (kubeconfigFile) {
    connection = {
      kind: 'kubeconfig',
      file: isAbsolute(kubeconfigFile) ? kubeconfigFile : resolve(cwd, kubeconfigFile),
      context: env.KUBE_CONTEXT,
    };
  } else if (env.KUBERNETES_SERVICE_HOST) {
    connection = { kind: 'in-cluster' };
  } else {
    throw new ConfigError(
      'no cluster: pass --kubeconfig FILE, set KUBECONFIG, run in a pod, or use `pnpm start` for the embedded cluster',
    );
  }

  const loopback = isLoopbackHost(env.HOST);
  const authMode: AuthMode =
    env.AUTH_MODE ?? (connection.kind === 'kubeconfig' && loopback ? 'local' : 'token');
  if (authMode === 'local' && !loopback) {
    throw new ConfigError(
      `AUTH_MODE=local acts with the kubeconfig's identity and is bound to loopback only; HOST=${env.HOST} is not loopback`,
    );
  }
  const sessionKeys = sessionKeysOf(env, readFile);
  if (authMode === 'token' && sessionKeys.length === 0) {
    throw new ConfigError(
      'token mode needs SESSION_KEYS or SESSION_KEYS_FILE (32-byte base64 keys shared by every replica)',
    );
  }
  const trustProxy =
    env.TRUST_PROXY === undefined
      ? false
      : env.TRUST_PROXY === 'true'
        ? true
        : env.TRUST_PROXY === 'false'
          ? false
          : env.TRUST_PROXY;

  return {
    host: env.HOST,
    port: env.PORT,
    connection,
    embedded,
    authMode,
    sessionKeys,
    sessionTtlSeconds: env.SESSION_TTL_SECONDS,
    trustProxyAuthorization: env.TRUST_PROXY_AUTHORIZATION,
    trustProxy,
    allowedOrigins: env.ALLOWED_ORIGINS,
    namespaces: env.WATCH_NAMESPACES,
    staticDir: env.STATIC_DIR ? resolve(cwd, env.STATIC_DIR) : undefined,
    providerVersion: env.PROVIDER_VERSION,
    logLevel: env.LOG_LEVEL,
    accessReviewTtlMs: env.ACCESS_REVIEW_TTL_SECONDS * 1000,
    signInRatePerMinute: env.SIGNIN_RATE_PER_MINUTE,
    mutationRatePerMinute: env.MUTATION_RATE_PER_MINUTE,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    sse: {
      heartbeatMs: env.SSE_HEARTBEAT_MS,
      replayEvents: env.SSE_REPLAY_EVENTS,
      clientBuffer: env.SSE_CLIENT_BUFFER,
      maxClients: env.SSE_MAX_CLIENTS,
      batchMs: env.SSE_BATCH_MS,
    },
    informerStaleAfterMs: env.INFORMER_STALE_AFTER_MS,
    allowInsecureTls: env.ALLOW_INSECURE_TLS,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
  };
}

/** What `pnpm start` (the launcher) needs besides the BFF's own configuration. */
export interface LauncherSettings {
  /** A kubeconfig was given: serve that cluster and start no simulator. */
  kubeconfig: string | undefined;
  /** Extra arguments for the embedded simulator, e.g. `--seed empty --time-scale 10`. */
  simArgs: string[];
  /** How long to wait for the simulator's `sim: ready` line. */
  simReadyTimeoutMs: number;
}

export function launcherSettings(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): LauncherSettings {
  const i = argv.indexOf('--kubeconfig');
  const fromArgs =
    i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--kubeconfig='))?.slice(13);
  const timeout = Number(env.SIM_READY_TIMEOUT_MS ?? '120000');
  return {
    kubeconfig: fromArgs ?? (env.KUBECONFIG === '' ? undefined : env.KUBECONFIG),
    simArgs: (env.SIM_ARGS ?? '').split(/\s+/).filter((a) => a !== ''),
    simReadyTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 120_000,
  };
}
