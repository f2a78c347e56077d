import { stringify } from 'yaml';

export interface KubeconfigContext {
  /** Context name, e.g. `sim-operator`. */
  name: string;
  /** Bearer token of the context's user. */
  token: string;
  /** User entry name; defaults to the context name. */
  user?: string;
  namespace?: string;
}

export interface KubeconfigOptions {
  server: string;
  /** PEM of the CA that signed the serving certificate (absent for plain HTTP). */
  caPem?: string;
  clusterName?: string;
  contexts: readonly KubeconfigContext[];
  /** Defaults to the first context. */
  currentContext?: string;
}

/** A kubeconfig (YAML) with one cluster and one user + context per token. */
export function buildKubeconfig(o: KubeconfigOptions): string {
  const clusterName = o.clusterName ?? 'apiserver';
  const cluster: Record<string, string> = { server: o.server };
  if (o.caPem) cluster['certificate-authority-data'] = Buffer.from(o.caPem).toString('base64');
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    clusters: [{ name: clusterName, cluster }],
    users: o.contexts.map((c) => ({ name: c.user ?? c.name, user: { token: c.token } })),
    contexts: o.contexts.map((c) => ({
      name: c.name,
      context: {
        cluster: clusterName,
        user: c.user ?? c.name,
        ...(c.namespace ? { namespace: c.namespace } : {}),
      },
    })),
    'current-context': o.currentContext ?? o.contexts[0]?.name ?? '',
  });
}
