import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { formatDuration, parseDuration } from './duration';

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

/**
 * The BFF's environment for signing in through the simulator's embedded OpenID provider (`pnpm
 * start --sso`, the e2e suite): the provider's issuer and client as the simulator prints them, the
 * claims mapping its cluster uses (`oidcTrustFlags`), and a session key for this run unless one
 * is set.
 */
export function embeddedSsoEnv(
  issuer: string,
  clientId: string,
  consoleUrl: string,
  sessionKey: string,
): Record<string, string> {
  return {
    AUTH_MODE: 'oidc',
    OIDC_ISSUER_URL: issuer,
    OIDC_CLIENT_ID: clientId,
    OIDC_REDIRECT_URI: `${consoleUrl}${OIDC_CALLBACK_PATH}`,
    OIDC_POST_LOGOUT_REDIRECT_URI: `${consoleUrl}/sign-in`,
    OIDC_SCOPES: 'openid email profile groups offline_access',
    OIDC_USERNAME_CLAIM: 'email',
    OIDC_GROUPS_CLAIM: 'groups',
    OIDC_GROUPS_PREFIX: 'oidc:',
    SESSION_KEYS: sessionKey,
  };
}

/** A duration such as `10m`, `90s` or `1m30s`, as milliseconds. */
const duration = z.string().transform((v, ctx) => {
  const ms = parseDuration(v);
  if (ms === undefined || ms <= 0) {
    ctx.addIssue({ code: 'custom', message: `a positive duration such as 10m or 90s, got ${v}` });
    return z.NEVER;
  }
  return ms;
});

/** T-1: how long a machine may stay Provisioning before the console calls it stuck. */
export const DEFAULT_STUCK_AFTER = '10m';

const EnvSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /**
   * Connections the kernel may hold before the BFF accepts them (listen(2) backlog; the kernel
   * caps it at net.core.somaxconn). Node's 511 overflowed when thousands of browsers reconnected
   * at once (a BFF restart): the overflow fell back to SYN cookies that failed, i.e. resets.
   */
  LISTEN_BACKLOG: z.coerce.number().int().min(1).max(65535).default(4096),
  KUBECONFIG: z.string().optional(),
  KUBE_CONTEXT: z.string().optional(),
  /** Set by the kubelet in every pod: the in-cluster service account is used then. */
  KUBERNETES_SERVICE_HOST: z.string().optional(),
  AUTH_MODE: z.enum(['local', 'token', 'oidc']).optional(),
  /**
   * Issue 27, single sign-on (AUTH_MODE=oidc): the provider's issuer URL (its discovery document
   * is read from `<issuer>/.well-known/openid-configuration`), the console's client, and the
   * exact redirect URI registered for it (`https://console.example/api/v1/session/oidc/callback`).
   */
  OIDC_ISSUER_URL: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  /** A confidential client's secret (client_secret_basic); unset = a public client (PKCE only). */
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET_FILE: z.string().optional(),
  OIDC_REDIRECT_URI: z.url().optional(),
  /** Where the provider returns to after sign-out; default: the console's `/sign-in`. */
  OIDC_POST_LOGOUT_REDIRECT_URI: z.url().optional(),
  OIDC_SCOPES: z.string().default('openid email profile offline_access'),
  /** Which token the BFF presents to the API server: the ID token (default) or the access token. */
  OIDC_PRESENT: z.enum(['id_token', 'access_token']).default('id_token'),
  /** The API server's claims mapping (its --oidc-username-claim and friends), shown to the user. */
  OIDC_USERNAME_CLAIM: z.string().min(1).default('sub'),
  OIDC_USERNAME_PREFIX: z.string().optional(),
  OIDC_GROUPS_CLAIM: z.string().min(1).optional(),
  OIDC_GROUPS_PREFIX: z.string().optional(),
  /** The presented token is refreshed when it has less than this left. */
  OIDC_REFRESH_BEFORE: duration.prefault('60s'),
  /** Seconds of clock difference with the provider tolerated when checking its tokens. */
  OIDC_CLOCK_TOLERANCE_SECONDS: z.coerce.number().int().min(0).max(600).default(30),
  /**
   * A client id for the downloadable kubeconfig (kubectl oidc-login): a public client the API
   * server trusts; default OIDC_CLIENT_ID. No secret is ever written into it.
   */
  OIDC_KUBECTL_CLIENT_ID: z.string().min(1).optional(),
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
  /** Host names besides loopback and the listen address that requests may name (DNS rebinding). */
  ALLOWED_HOSTS: csv.default([]),
  WATCH_NAMESPACES: csv.default([]),
  STATIC_DIR: z.string().optional(),
  PROVIDER_VERSION: z.string().optional(),
  /**
   * T-1's threshold, on the wall clock. The embedded simulator writes wall-clock timestamps and
   * `--time-scale X` only shortens its durations, so the launcher passes 10m / X for it.
   */
  STUCK_AFTER: duration.prefault(DEFAULT_STUCK_AFTER),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_REVIEW_TTL_SECONDS: z.coerce.number().int().min(0).max(60).default(60),
  SIGNIN_RATE_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  MUTATION_RATE_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  // Issue 12, the audit timeline: how long records are kept and the size cap of one cluster's.
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  AUDIT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(4096)
    .max(900 * 1024)
    .default(512 * 1024),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(20_000).default(15_000),
  SSE_REPLAY_EVENTS: z.coerce.number().int().min(0).default(2_000),
  SSE_CLIENT_BUFFER: z.coerce.number().int().min(1).default(512),
  /** Bytes one stream may have waiting (queued frames + its socket's unsent bytes): then resync. */
  SSE_CLIENT_BUFFER_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(4 * 1024 * 1024),
  SSE_MAX_CLIENTS: z.coerce.number().int().min(1).default(10_000),
  /**
   * The floor of a cluster's batch window (issue 28): a change to a cluster whose streams were
   * quiet this long (or longer, as the fan-out's cost says) is written at once; changes arriving
   * sooner wait for the window's end and go out together, one write per tab.
   */
  SSE_BATCH_MS: z.coerce.number().int().min(0).max(200).default(5),
  INFORMER_STALE_AFTER_MS: z.coerce.number().int().min(0).default(90_000),
  /**
   * Watches failing without a break this long mean the management cluster is unreachable:
   * `/readyz` answers 503, streams say "disconnected since …", mutations are refused (503).
   */
  UPSTREAM_DOWN_AFTER: duration.prefault('10s'),
  /**
   * Issue 23: how often the served versions of the Cluster API groups are read again from
   * discovery, so that an upgrade of Cluster API under a running console (v1.10 → v1.14 starts
   * serving v1beta2) moves its watches without a restart. A watch answered 404 (v1.16 stops
   * serving v1beta1) asks again at once.
   */
  DISCOVERY_RECHECK: duration.prefault('30s'),
  /**
   * Issue 14 (cold start): how long a read of cached data waits for the caches' first list
   * before it answers 503 with Retry-After (never a 404 or a partial answer from a half-filled
   * cache, never a hang).
   */
  CACHE_SYNC_WAIT: duration.prefault('3s'),
  /** Only for a development API server with a self-signed certificate: never the default. */
  ALLOW_INSECURE_TLS: bool.default(false),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** `/metrics` on its own listener (0 = a free port); unset = not served at all. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Where the metrics listener binds; default: HOST. */
  METRICS_HOST: z.string().min(1).optional(),
});

export type AuthMode = 'local' | 'token' | 'oidc';

/** The path of the callback the provider redirects to (OIDC_REDIRECT_URI must end with it). */
export const OIDC_CALLBACK_PATH = '/api/v1/session/oidc/callback';

export interface OidcConfig {
  issuerUrl: string;
  clientId: string;
  clientSecret: string | undefined;
  redirectUri: string;
  postLogoutRedirectUri: string;
  scopes: string[];
  present: 'id_token' | 'access_token';
  usernameClaim: string;
  usernamePrefix: string | undefined;
  groupsClaim: string | undefined;
  groupsPrefix: string | undefined;
  refreshBeforeMs: number;
  clockToleranceSeconds: number;
  kubectlClientId: string;
}

/** Where the BFF's own connection to the API server comes from. */
export type ConnectionSource =
  { kind: 'kubeconfig'; file: string; context?: string | undefined } | { kind: 'in-cluster' };

export interface Config {
  host: string;
  port: number;
  /** listen(2) backlog of the app's port (LISTEN_BACKLOG). */
  listenBacklog: number;
  connection: ConnectionSource;
  /** The kubeconfig was written by the embedded simulator (the launcher says so). */
  embedded: boolean;
  authMode: AuthMode;
  /** OIDC mode's settings (undefined in the other modes). */
  oidc: OidcConfig | undefined;
  sessionKeys: Buffer[];
  sessionTtlSeconds: number;
  trustProxyAuthorization: boolean;
  trustProxy: boolean | string;
  allowedOrigins: string[];
  /**
   * Host names (no port, lower case) a request's `Host` may name: loopback names, the listen
   * address unless it is a wildcard, and ALLOWED_HOSTS. Anything else is refused (421), so that a
   * page whose name was rebound to this address cannot use the console.
   */
  allowedHosts: string[];
  /** Namespaces to watch; empty = all namespaces (one watch per kind). */
  namespaces: string[];
  staticDir: string | undefined;
  providerVersion: string | undefined;
  /** T-1: a machine Provisioning this long is diagnosed as stuck (domain's `stuckAfterMs`). */
  stuckAfterMs: number;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  accessReviewTtlMs: number;
  signInRatePerMinute: number;
  mutationRatePerMinute: number;
  /** The audit records' bounds (issue 12): retention and the size cap of one ConfigMap's records. */
  audit: { retentionMs: number; maxBytes: number };
  bodyLimitBytes: number;
  sse: {
    heartbeatMs: number;
    replayEvents: number;
    clientBuffer: number;
    clientBufferBytes: number;
    maxClients: number;
    batchMs: number;
  };
  informerStaleAfterMs: number;
  /** See UPSTREAM_DOWN_AFTER. */
  upstreamDownAfterMs: number;
  /** See DISCOVERY_RECHECK. */
  discoveryRecheckMs: number;
  /** See CACHE_SYNC_WAIT. */
  cacheSyncWaitMs: number;
  allowInsecureTls: boolean;
  shutdownGraceMs: number;
  /** `/metrics` is served on this port only (never the app's); undefined = not served. */
  metricsPort: number | undefined;
  metricsHost: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

export const isLoopbackHost = (host: string): boolean => LOOPBACK.test(host);

/** Names every machine gives its loopback interface. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/** The host name of a `Host` header or a listen address: no port, no IPv6 brackets, lower case. */
export function hostNameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  // One colon: name:port; several: a bare IPv6 address.
  const colon = h.indexOf(':');
  return colon >= 0 && colon === h.lastIndexOf(':') ? h.slice(0, colon) : h;
}

function allowedHostsOf(listen: string, extra: readonly string[]): string[] {
  const own = WILDCARDS.has(listen) ? [] : [hostNameOf(listen)];
  return [...new Set([...LOOPBACK_NAMES, ...own, ...extra.map(hostNameOf)])];
}

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

/**
 * The options of a command line as pnpm hands them over. pnpm passes the `--` of
 * `pnpm start -- --kubeconfig FILE` on to the script (issue 13 item 3), and parseArgs would take
 * everything after it as positionals. No command of the BFF takes a positional argument, so a bare
 * `--` carries nothing and is dropped wherever it stands.
 */
export function optionArgs(argv: readonly string[]): string[] {
  return argv.filter((a) => a !== '--');
}

/** A command line parseArgs refuses is the user's mistake: said in one line, not a stack trace. */
function parseCommandLine<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}

export interface LoadOptions {
  argv?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  readFile?: (file: string) => string;
}

/**
 * Reads the command line (`--kubeconfig FILE`, `--context NAME`, `--auth-mode`, `--host`,
 * `--port`, `--embedded`, `--provider-version`, `--stuck-after`) over the environment, validates
 * both and derives the defaults:
 * - local auth by default with the embedded cluster or a kubeconfig when bound to loopback;
 *   token auth otherwise (in a pod);
 * - local auth is refused on any address but loopback: it acts with the kubeconfig's identity;
 * - token auth needs session keys shared by every replica.
 */
/** Where and how `serve` listens (the benchmark's BFF too): the port and its backlog. */
export const listenOptionsOf = (
  config: Pick<Config, 'host' | 'port' | 'listenBacklog'>,
): { host: string; port: number; backlog: number } => ({
  host: config.host,
  port: config.port,
  backlog: config.listenBacklog,
});

export function loadConfig(options: LoadOptions = {}): Config {
  // The one place that reads the process environment.
  const rawEnv = options.env ?? process.env;
  // pnpm runs scripts in the package's folder; relative paths are the user's (INIT_CWD).
  const cwd = options.cwd ?? rawEnv.INIT_CWD ?? process.cwd();
  const readFile = options.readFile ?? ((f: string) => readFileSync(f, 'utf8'));
  const { values } = parseCommandLine(() =>
    parseArgs({
      args: optionArgs(options.argv ?? []),
      options: {
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        'auth-mode': { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        embedded: { type: 'boolean' },
        'provider-version': { type: 'string' },
        'stuck-after': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }),
  );
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
    ...(values['stuck-after'] !== undefined ? { STUCK_AFTER: values['stuck-after'] } : {}),
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
  if (authMode !== 'local' && sessionKeys.length === 0) {
    throw new ConfigError(
      `${authMode} mode needs SESSION_KEYS or SESSION_KEYS_FILE (32-byte base64 keys shared by every replica)`,
    );
  }
  const oidc = authMode === 'oidc' ? oidcConfigOf(env, readFile) : undefined;
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
    listenBacklog: env.LISTEN_BACKLOG,
    connection,
    embedded,
    authMode,
    oidc,
    sessionKeys,
    sessionTtlSeconds: env.SESSION_TTL_SECONDS,
    trustProxyAuthorization: env.TRUST_PROXY_AUTHORIZATION,
    trustProxy,
    allowedOrigins: env.ALLOWED_ORIGINS,
    allowedHosts: allowedHostsOf(env.HOST, env.ALLOWED_HOSTS),
    namespaces: env.WATCH_NAMESPACES,
    staticDir: env.STATIC_DIR ? resolve(cwd, env.STATIC_DIR) : undefined,
    providerVersion: env.PROVIDER_VERSION,
    stuckAfterMs: env.STUCK_AFTER,
    logLevel: env.LOG_LEVEL,
    accessReviewTtlMs: env.ACCESS_REVIEW_TTL_SECONDS * 1000,
    signInRatePerMinute: env.SIGNIN_RATE_PER_MINUTE,
    mutationRatePerMinute: env.MUTATION_RATE_PER_MINUTE,
    audit: {
      retentionMs: env.AUDIT_RETENTION_DAYS * 24 * 3600 * 1000,
      maxBytes: env.AUDIT_MAX_BYTES,
    },
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    sse: {
      heartbeatMs: env.SSE_HEARTBEAT_MS,
      replayEvents: env.SSE_REPLAY_EVENTS,
      clientBuffer: env.SSE_CLIENT_BUFFER,
      clientBufferBytes: env.SSE_CLIENT_BUFFER_BYTES,
      maxClients: env.SSE_MAX_CLIENTS,
      batchMs: env.SSE_BATCH_MS,
    },
    informerStaleAfterMs: env.INFORMER_STALE_AFTER_MS,
    upstreamDownAfterMs: env.UPSTREAM_DOWN_AFTER,
    discoveryRecheckMs: env.DISCOVERY_RECHECK,
    cacheSyncWaitMs: env.CACHE_SYNC_WAIT,
    allowInsecureTls: env.ALLOW_INSECURE_TLS,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    metricsPort: env.METRICS_PORT,
    metricsHost: env.METRICS_HOST ?? env.HOST,
  };
}

function oidcConfigOf(env: z.infer<typeof EnvSchema>, readFile: (f: string) => string): OidcConfig {
  const missing = (['OIDC_ISSUER_URL', 'OIDC_CLIENT_ID', 'OIDC_REDIRECT_URI'] as const).filter(
    (k) => env[k] === undefined,
  );
  if (missing.length > 0) throw new ConfigError(`oidc mode needs ${missing.join(', ')}`);
  const issuerUrl = env.OIDC_ISSUER_URL ?? '';
  const redirectUri = env.OIDC_REDIRECT_URI ?? '';
  const clientId = env.OIDC_CLIENT_ID ?? '';
  const issuer = new URL(issuerUrl);
  if (
    issuer.protocol !== 'https:' &&
    !(issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname))
  ) {
    throw new ConfigError(
      `OIDC_ISSUER_URL must be https (http only on loopback), got ${issuerUrl}`,
    );
  }
  const redirect = new URL(redirectUri);
  if (redirect.pathname !== OIDC_CALLBACK_PATH || redirect.search !== '' || redirect.hash !== '') {
    throw new ConfigError(
      `OIDC_REDIRECT_URI must be the console's ${OIDC_CALLBACK_PATH}, exactly (no query), got ${redirectUri}`,
    );
  }
  const secret =
    env.OIDC_CLIENT_SECRET ??
    (env.OIDC_CLIENT_SECRET_FILE ? readFile(env.OIDC_CLIENT_SECRET_FILE).trim() : undefined);
  const scopes = env.OIDC_SCOPES.split(/\s+/).filter((s) => s !== '');
  if (!scopes.includes('openid')) {
    throw new ConfigError(`OIDC_SCOPES must include openid, got ${env.OIDC_SCOPES}`);
  }
  return {
    issuerUrl,
    clientId,
    clientSecret: secret === '' ? undefined : secret,
    redirectUri,
    postLogoutRedirectUri: env.OIDC_POST_LOGOUT_REDIRECT_URI ?? `${redirect.origin}/sign-in`,
    scopes,
    present: env.OIDC_PRESENT,
    usernameClaim: env.OIDC_USERNAME_CLAIM,
    usernamePrefix: env.OIDC_USERNAME_PREFIX,
    groupsClaim: env.OIDC_GROUPS_CLAIM,
    groupsPrefix: env.OIDC_GROUPS_PREFIX,
    refreshBeforeMs: env.OIDC_REFRESH_BEFORE,
    clockToleranceSeconds: env.OIDC_CLOCK_TOLERANCE_SECONDS,
    kubectlClientId: env.OIDC_KUBECTL_CLIENT_ID ?? clientId,
  };
}

/** What `pnpm start` (the launcher) needs besides the BFF's own configuration. */
export interface LauncherSettings {
  /** A kubeconfig was given: serve that cluster and start no simulator. */
  kubeconfig: string | undefined;
  /**
   * Extra arguments for the embedded simulator, e.g. `--seed empty --time-scale 10`; the
   * launcher's own `--capi-release V` (issue 23) is passed on to it.
   */
  simArgs: string[];
  /** The launcher's arguments for the BFF: all but the ones that are the simulator's. */
  bffArgs: string[];
  /** How long to wait for the simulator's `sim: ready` line. */
  simReadyTimeoutMs: number;
  /**
   * `--stuck-after` for the BFF on the embedded cluster: 10 simulated minutes on the wall clock
   * (10m / X for `--time-scale X` in SIM_ARGS), unless the user gave one; undefined otherwise.
   */
  stuckAfter: string | undefined;
  /**
   * `pnpm start --sso` (issue 27): the simulator also runs its embedded OpenID provider, the
   * cluster trusts it, and the BFF signs users in through it (AUTH_MODE=oidc). The console's
   * address, which the provider must know as the exact redirect URI.
   */
  sso: { consoleUrl: string } | undefined;
}

/** The value of `--name V` or `--name=V` in argv (the last one wins, as parseArgs does). */
function flagValue(argv: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (const [i, a] of argv.entries()) {
    if (a === `--${name}`) value = argv[i + 1];
    else if (a.startsWith(`--${name}=`)) value = a.slice(name.length + 3);
  }
  return value;
}

/** T-1's threshold for a simulator running `timeScale` simulated seconds per real second. */
export function stuckAfterForTimeScale(timeScale: number): string {
  const ms = parseDuration(DEFAULT_STUCK_AFTER) ?? 600_000;
  return formatDuration(ms / timeScale);
}

export function launcherSettings(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): LauncherSettings {
  const fromArgs = flagValue(argv, 'kubeconfig');
  const timeout = Number(env.SIM_READY_TIMEOUT_MS ?? '120000');
  const release = flagValue(argv, 'capi-release');
  const simArgs = [
    ...(env.SIM_ARGS ?? '').split(/\s+/).filter((a) => a !== ''),
    ...(release !== undefined ? ['--capi-release', release] : []),
  ];
  const sso = argv.includes('--sso');
  const bffArgs = argv.filter(
    (a, i) =>
      a !== '--sso' &&
      a !== '--capi-release' &&
      argv[i - 1] !== '--capi-release' &&
      !a.startsWith('--capi-release='),
  );
  let consoleUrl: string | undefined;
  if (sso) {
    const host = flagValue(argv, 'host') ?? env.HOST ?? '127.0.0.1';
    const port = flagValue(argv, 'port') ?? env.PORT ?? '8080';
    if (port === '0')
      throw new ConfigError('--sso needs a fixed port: the provider must know the redirect URI');
    const name = WILDCARDS.has(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    consoleUrl = `http://${name}:${port}`;
    simArgs.push(
      '--oidc',
      '--oidc-redirect-uri',
      `${consoleUrl}${OIDC_CALLBACK_PATH}`,
      '--oidc-post-logout-redirect-uri',
      `${consoleUrl}/sign-in`,
    );
  }
  const timeScale = Number(flagValue(simArgs, 'time-scale') ?? '1');
  const userGaveOne =
    flagValue(argv, 'stuck-after') !== undefined || (env.STUCK_AFTER ?? '') !== '';
  return {
    kubeconfig: fromArgs ?? (env.KUBECONFIG === '' ? undefined : env.KUBECONFIG),
    simArgs,
    bffArgs,
    simReadyTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 120_000,
    stuckAfter:
      userGaveOne || !(timeScale > 0) || timeScale === 1
        ? undefined
        : stuckAfterForTimeScale(timeScale),
    sso: consoleUrl !== undefined ? { consoleUrl } : undefined,
  };
}
