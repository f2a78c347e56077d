import type https from 'node:https';

/**
 * What the informer needs of a kubeconfig: the current cluster's server URL, and the credentials
 * and TLS settings applied to a Node request. client-node's `KubeConfig` is one (its
 * `applyToHTTPSOptions` runs the same authenticators as its API clients); a lighter
 * implementation spares a process client-node's generated API modules (the simulator's
 * controllers: about 115 MiB of RSS under tsx).
 */
export interface KubeConfigLike {
  getCurrentCluster(): { readonly server: string } | null;
  applyToHTTPSOptions(options: https.RequestOptions): Promise<void>;
}
