import type { KubeConfig } from '@kubernetes/client-node';
import { unwatchFile, watchFile, type Stats } from 'node:fs';
import fp from 'fastify-plugin';
import {
  loadKubeConfig,
  openConnection,
  reloadConnection,
  type Connection,
} from '../../kube/connection';
import { RestClient, type Credential, type KubeClient } from '../../kube/rest';
import { whoAmI, type Identity } from '../../kube/reviews';

/** How often the kubeconfig file is checked for a rewrite (a stat; the file may be replaced). */
const KUBECONFIG_POLL_MS = 1_000;

export interface Kube {
  connection: Connection;
  /** The BFF's own identity: informers only, and local mode's user. Never a token-mode request's. */
  own: KubeClient;
  clientFor(credential: Credential): KubeClient;
  /** Who the kubeconfig's user is (local mode), asked at start and after each reload. */
  localIdentity: Identity | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    kube: Kube;
  }
}

export default fp<{ kubeConfig?: KubeConfig }>(
  async (app, opts) => {
    const kc = opts.kubeConfig ?? loadKubeConfig(app.config.connection);
    const connection = await openConnection(kc, { allowInsecureTls: app.config.allowInsecureTls });
    const observe = (method: string, status: number, seconds: number) => {
      app.metrics.upstreamDuration.observe({ method, status: String(status) }, seconds);
    };
    const clientFor = (credential: Credential) => new RestClient(connection, credential, observe);
    const own = clientFor({ kind: 'kubeconfig', kubeConfig: kc });
    const identify = async (): Promise<Identity | undefined> => {
      if (app.config.authMode !== 'local') return undefined;
      try {
        return await whoAmI(own);
      } catch (error) {
        // Unreachable for now, or the credential was refused: name the user as the kubeconfig does.
        app.log.warn({ err: error }, 'could not ask who the kubeconfig user is; using its name');
        return { username: kc.getCurrentUser()?.name ?? 'kubeconfig-user', groups: [] };
      }
    };
    const kube: Kube = { connection, own, clientFor, localIdentity: await identify() };
    app.decorate('kube', kube);

    // A kubeconfig rewritten while we run (a restarted embedded cluster writes a new CA, port and
    // tokens; an operator rotates credentials) is read again, and the watches relist at once.
    const source = app.config.connection;
    const file = opts.kubeConfig === undefined && source.kind === 'kubeconfig' ? source : undefined;
    let reloading = Promise.resolve();
    const onFileChange = (current: Stats, previous: Stats) => {
      if (!file || current.mtimeMs === 0) return; // removed: keep what works until it is back
      if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
      reloading = reloading.then(async () => {
        try {
          const fresh = await reloadConnection(connection, file, {
            allowInsecureTls: app.config.allowInsecureTls,
          });
          kube.localIdentity = await identify();
          app.log.info({ server: connection.describe }, 'kubeconfig changed; reconnected');
          app.watchWithKubeConfig(fresh);
        } catch (error) {
          app.log.warn(
            { err: error, file: file.file },
            'kubeconfig changed but cannot be used; kept the previous one',
          );
        }
      });
    };
    if (file) watchFile(file.file, { interval: KUBECONFIG_POLL_MS }, onFileChange);
    app.addHook('onClose', async () => {
      if (file) unwatchFile(file.file, onFileChange);
      await reloading;
      connection.agent.destroy();
    });
    app.log.info(
      { server: connection.describe, authMode: app.config.authMode },
      'kubernetes connection',
    );
  },
  { name: 'kube', dependencies: ['config', 'metrics'] },
);
