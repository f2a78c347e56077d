import type { KubeConfig } from '@kubernetes/client-node';
import { readFileSync, unwatchFile, watchFile, type Stats } from 'node:fs';
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
/** Local mode, identity not known: the server is asked again at most this often (on requests). */
const IDENTITY_ASK_AGAIN_MS = 1_000;
/** How long a request waits for that answer before it goes on with an unknown identity. */
const IDENTITY_WAIT_MS = 2_000;

export interface Kube {
  connection: Connection;
  /** The BFF's own identity: informers only, and local mode's user. Never a token-mode request's. */
  own: KubeClient;
  clientFor(credential: Credential): KubeClient;
  /**
   * Who the kubeconfig's user is (local mode), as the API server said (a SelfSubjectReview), asked
   * at start and after each reload; `undefined` while the server has not said (unreachable, or it
   * refused the credential). Never the kubeconfig's user *label*: that is a name in a file, not
   * an identity (issue 25).
   */
  localIdentity: Identity | undefined;
  /**
   * Local mode, identity not known: asks the server again (one question at a time, at most once
   * per IDENTITY_ASK_AGAIN_MS) and resolves to what is known then, waiting at most until
   * IDENTITY_WAIT_MS after the question was asked; a later answer is kept for the next request.
   */
  confirmLocalIdentity(): Promise<Identity | undefined>;
  /** The API server's URL and CA (PEM) as the BFF's kubeconfig names them (the kubeconfig download). */
  cluster: { name: string; server: string; caPem: string | undefined };
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
    // Which connection an answer is about: one asked before a reload is not kept after it.
    let generation = 0;
    let askedAt = Number.NEGATIVE_INFINITY;
    let asking: Promise<Identity | undefined> | undefined;
    const identify = async (): Promise<Identity | undefined> => {
      if (app.config.authMode !== 'local') return undefined;
      askedAt = Date.now();
      try {
        return await whoAmI(own);
      } catch (error) {
        // Unreachable for now, or the credential was refused: the server has not said who this
        // is, so nobody is named (not the kubeconfig's label); requests ask again.
        app.log.warn(
          { err: error },
          'the API server could not say who the kubeconfig user is; unknown until it answers',
        );
        return undefined;
      }
    };
    const current = kc.getCurrentCluster();
    const caPem =
      current?.caData !== undefined
        ? Buffer.from(current.caData, 'base64').toString('utf8')
        : current?.caFile
          ? readFileSync(current.caFile, 'utf8')
          : undefined;
    const kube: Kube = {
      connection,
      own,
      clientFor,
      cluster: { name: current?.name ?? 'management', server: current?.server ?? '', caPem },
      localIdentity: await identify(),
      confirmLocalIdentity: async () => {
        if (kube.localIdentity !== undefined || app.config.authMode !== 'local') {
          return kube.localIdentity;
        }
        if (!asking && Date.now() - askedAt >= IDENTITY_ASK_AGAIN_MS) {
          const asked = generation;
          asking = identify()
            .then((identity) => {
              if (identity !== undefined && asked === generation) kube.localIdentity = identity;
              return kube.localIdentity;
            })
            .finally(() => {
              asking = undefined;
            });
        }
        if (!asking) return undefined;
        // One wait per question, shared: while a slow question is out, later requests wait only
        // for what is left of it, never IDENTITY_WAIT_MS each.
        const left = askedAt + IDENTITY_WAIT_MS - Date.now();
        if (left <= 0) return undefined;
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<undefined>((resolve) => {
          timer = setTimeout(() => {
            resolve(undefined);
          }, left);
          timer.unref();
        });
        return Promise.race([asking, timeout]).finally(() => {
          clearTimeout(timer);
        });
      },
    };
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
          generation++;
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
