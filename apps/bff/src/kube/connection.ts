import http from 'node:http';
import https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { ConfigError, hostNameOf, isLoopbackHost, type ConnectionSource } from '../config/env';

/**
 * The BFF's connection to the API server: the server URL, the TLS settings every request uses
 * (whoever's credential it carries), and the BFF's own KubeConfig (informers; local mode's user).
 */
export interface Connection {
  /** Server URL without a trailing slash; may carry a path prefix. */
  server: string;
  /**
   * The BFF's own identity: the kubeconfig's user or the pod's service account. One object for
   * the life of the process, reloaded in place (`reloadConnection`), so that the informers and
   * clients holding it see a rewritten kubeconfig on their next request.
   */
  readonly kubeConfig: KubeConfig;
  /** CA and server name of the cluster, for requests made with a user's bearer token. */
  tls: Readonly<Pick<https.RequestOptions, 'ca' | 'servername' | 'rejectUnauthorized'>>;
  /** One keep-alive agent for every request: TLS identity is part of Node's agent key. */
  agent: http.Agent;
  describe: string;
}

const AGENT_OPTIONS = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16 };

export function loadKubeConfig(source: ConnectionSource): KubeConfig {
  const kc = new KubeConfig();
  if (source.kind === 'in-cluster') {
    kc.loadFromCluster();
  } else {
    try {
      kc.loadFromFile(source.file);
    } catch (error) {
      throw new ConfigError(
        `cannot read kubeconfig ${source.file}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (source.context !== undefined) {
      if (!kc.getContextObject(source.context)) {
        throw new ConfigError(`kubeconfig ${source.file} has no context ${source.context}`);
      }
      kc.setCurrentContext(source.context);
    }
  }
  return kc;
}

/**
 * Plain HTTP is accepted for an API server on loopback only (the embedded cluster's `--http`):
 * anywhere else every request's bearer token would cross the network in clear, so that is a
 * configuration error. client-node refuses `http://` unless the cluster "skips TLS verification";
 * with no TLS there is nothing to verify, so the in-memory copy says so for loopback.
 */
function plainHttpOnLoopback(kc: KubeConfig, clusterName: string, server: string): void {
  let host: string;
  try {
    host = hostNameOf(new URL(server).host);
  } catch {
    throw new ConfigError(`bad server URL ${server}`);
  }
  if (!isLoopbackHost(host)) {
    throw new ConfigError(
      `cluster ${clusterName} is served over plain HTTP (${server}); credentials would cross the network in clear: use https (plain HTTP is accepted on loopback only)`,
    );
  }
  kc.loadFromOptions({
    clusters: kc.clusters.map((c) => (c.name === clusterName ? { ...c, skipTLSVerify: true } : c)),
    users: kc.users,
    contexts: kc.contexts,
    currentContext: kc.currentContext,
  });
}

/**
 * Checks and prepares the connection. TLS verification stays on: a kubeconfig that asks to skip it
 * is refused unless the operator allowed that explicitly (a development server only).
 */
export async function openConnection(
  kc: KubeConfig,
  options: { allowInsecureTls: boolean },
): Promise<Connection> {
  return { ...(await connectionOf(kc, options)), kubeConfig: kc };
}

/**
 * Re-reads the kubeconfig file into the connection, in place: a restarted embedded cluster (new
 * port, CA and tokens) or a real cluster's rotated certificates and credentials, without
 * restarting the BFF (issue 10 item 4). Everything is checked before anything changes: a file
 * caught half-written, or one that no longer names the context, throws and leaves the working
 * connection as it was.
 */
export async function reloadConnection(
  connection: Connection,
  source: Extract<ConnectionSource, { kind: 'kubeconfig' }>,
  options: { allowInsecureTls: boolean },
): Promise<KubeConfig> {
  const fresh = loadKubeConfig(source);
  const next = await connectionOf(fresh, options);
  // Clients that hold the connection's KubeConfig (local mode's user) read it per request and
  // send through our own agent, so an in-place reload reaches them. Informers must be handed
  // the returned fresh object instead (client-node caches an agent, with its CA, per name).
  const kc = connection.kubeConfig;
  kc.loadFromOptions({
    clusters: fresh.clusters,
    users: fresh.users,
    contexts: fresh.contexts,
    currentContext: fresh.getCurrentContext(),
  });
  const old = connection.agent;
  connection.server = next.server;
  connection.tls = next.tls;
  connection.agent = next.agent;
  connection.describe = next.describe;
  // Requests in flight keep their sockets; idle ones to the old server go now.
  old.destroy();
  return fresh;
}

async function connectionOf(
  kc: KubeConfig,
  options: { allowInsecureTls: boolean },
): Promise<Omit<Connection, 'kubeConfig'>> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new ConfigError('the kubeconfig has no current cluster');
  if (cluster.skipTLSVerify && !options.allowInsecureTls) {
    throw new ConfigError(
      `cluster ${cluster.name} sets insecure-skip-tls-verify; refusing (set ALLOW_INSECURE_TLS=true for a development server)`,
    );
  }
  const server = cluster.server.replace(/\/+$/, '');
  if (!/^https?:\/\//.test(server)) throw new ConfigError(`bad server URL ${cluster.server}`);
  const plain = server.startsWith('http:');
  const base: https.RequestOptions = {};
  if (plain) {
    plainHttpOnLoopback(kc, cluster.name, server);
  } else {
    // The cluster's CA and server name alone: a user-less KubeConfig applies nothing else.
    const clusterOnly = new KubeConfig();
    clusterOnly.loadFromClusterAndUser(cluster, { name: 'tls-only' });
    await clusterOnly.applyToHTTPSOptions(base);
  }
  const tls = {
    ...(base.ca !== undefined ? { ca: base.ca } : {}),
    ...(base.servername !== undefined ? { servername: base.servername } : {}),
    rejectUnauthorized: !cluster.skipTLSVerify,
  };
  return {
    server,
    tls,
    agent: plain ? new http.Agent(AGENT_OPTIONS) : new https.Agent(AGENT_OPTIONS),
    describe: `${server} (context ${kc.getCurrentContext()})`,
  };
}
