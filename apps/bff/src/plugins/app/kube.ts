import type { KubeConfig } from '@kubernetes/client-node';
import fp from 'fastify-plugin';
import { loadKubeConfig, openConnection, type Connection } from '../../kube/connection';
import { RestClient, type Credential, type KubeClient } from '../../kube/rest';
import { whoAmI, type Identity } from '../../kube/reviews';

export interface Kube {
  connection: Connection;
  /** The BFF's own identity: informers only, and local mode's user. Never a token-mode request's. */
  own: KubeClient;
  clientFor(credential: Credential): KubeClient;
  /** Who the kubeconfig's user is (local mode), asked once at start. */
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
    let localIdentity: Identity | undefined;
    if (app.config.authMode === 'local') {
      try {
        localIdentity = await whoAmI(own);
      } catch (error) {
        // Older servers lack SelfSubjectReview: name the user as the kubeconfig does.
        app.log.warn({ err: error }, 'SelfSubjectReview failed; using the kubeconfig user name');
        localIdentity = { username: kc.getCurrentUser()?.name ?? 'kubeconfig-user', groups: [] };
      }
    }
    app.decorate('kube', { connection, own, clientFor, localIdentity });
    app.addHook('onClose', (_app, done) => {
      connection.agent.destroy();
      done();
    });
    app.log.info(
      { server: connection.describe, authMode: app.config.authMode },
      'kubernetes connection',
    );
  },
  { name: 'kube', dependencies: ['config', 'metrics'] },
);
