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
  readonly server: string;
  /** The BFF's own identity: the kubeconfig's user or the pod's service account. */
  readonly kubeConfig: KubeConfig;
  /** CA and server name of the cluster, for requests made with a user's bearer token. */
  readonly tls: Readonly<Pick<https.RequestOptions, 'ca' | 'servername' | 'rejectUnauthorized'>>;
  /** One keep-alive agent for every request: TLS identity is part of Node's agent key. */
  readonly agent: http.Agent;
  readonly describe: string;
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
    kubeConfig: kc,
    tls,
    agent: plain ? new http.Agent(AGENT_OPTIONS) : new https.Agent(AGENT_OPTIONS),
    describe: `${server} (context ${kc.getCurrentContext()})`,
  };
}
