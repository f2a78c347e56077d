import { DEFAULT_NAMESPACE } from '@dcs/domain';
import fp from 'fastify-plugin';
import { RevocationList, REVOCATIONS_NAME } from '../../auth/revocations';
import type { ObjectSource } from '../../cache/source';
import { HttpError, issue } from '../../http/errors';
import { KubeApiError } from '../../kube/errors';
import { createObject, patchObject } from '../../kube/objects';

declare module 'fastify' {
  interface FastifyInstance {
    revocations: {
      /** True when the session was signed out (on any replica). */
      revoked(sid: string): Promise<boolean>;
      /** Records a sign-out for every replica; 503 when the list cannot be written. */
      revoke(sid: string, exp: number): Promise<void>;
      /**
       * Called with each session as this replica learns it is signed out (here or, through the
       * watch, on another replica), so that what it holds open ends. Returns the unsubscribe.
       */
      onRevoked(listener: (sid: string) => void): () => void;
    };
  }
}

/** How long a request waits for this replica's first read of the list before a 503. */
const SYNC_WAIT_MS = 5_000;

const unavailable = (message: string) =>
  new HttpError(503, 'RevocationsUnavailable', message, [
    issue('R-AUTH', '', 'bff.auth.revocations', message),
  ]);

/**
 * Session revocation in token mode (auth/revocations.ts): one watch of one ConfigMap in the
 * console's namespace, written with the BFF's own identity (the user may have no right to it).
 * Local mode has no sessions, so nothing is watched.
 */
export default fp(
  (app, _opts, done) => {
    if (app.config.authMode === 'local') {
      app.decorate('revocations', {
        revoked: () => Promise.resolve(false),
        revoke: () => Promise.resolve(),
        onRevoked: () => () => undefined,
      });
      done();
      return;
    }
    const namespace = DEFAULT_NAMESPACE;
    const list = new RevocationList();
    const listeners = new Set<(sid: string) => void>();
    const announce = (sids: readonly string[]) => {
      for (const sid of sids) for (const l of listeners) l(sid);
    };
    const source: ObjectSource = app.sources({
      group: '',
      version: 'v1',
      plural: 'configmaps',
      namespace,
      fieldSelector: `metadata.name=${REVOCATIONS_NAME}`,
    });
    const seen = (o: unknown) => {
      const cm = o as { metadata?: { name?: string }; data?: Record<string, unknown> };
      if (cm.metadata?.name === REVOCATIONS_NAME) announce(list.apply(cm.data ?? {}));
    };
    source.addHandlers({
      add: seen,
      update: seen,
      delete: (o) => {
        if ((o as { metadata?: { name?: string } }).metadata?.name === REVOCATIONS_NAME)
          list.apply(undefined);
      },
    });
    source.start();

    const synced = async () => {
      const until = Date.now() + SYNC_WAIT_MS;
      while (!source.hasSynced()) {
        if (Date.now() > until)
          throw unavailable('this replica has not yet read the session revocations; retry');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    const revoke = async (sid: string, exp: number) => {
      await synced();
      const patch = list.patchFor(sid, exp);
      if (patch === 'full') {
        throw unavailable(
          'too many sessions were signed out recently to record another; the cookie is cleared in this browser',
        );
      }
      try {
        try {
          await patchObject(app.kube.own, 'ConfigMap', namespace, REVOCATIONS_NAME, 'merge', patch);
        } catch (error) {
          if (!(error instanceof KubeApiError && error.status === 404)) throw error;
          // `deploy/` creates it; a development cluster may not have it yet.
          const created = {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: REVOCATIONS_NAME, namespace },
            data: { [sid]: String(exp) },
          };
          await createObject(app.kube.own, 'ConfigMap', namespace, created).catch(
            async (e: unknown) => {
              if (!(e instanceof KubeApiError && e.status === 409)) throw e;
              await patchObject(
                app.kube.own,
                'ConfigMap',
                namespace,
                REVOCATIONS_NAME,
                'merge',
                patch,
              );
            },
          );
        }
      } catch (error) {
        app.log.error({ err: error }, 'cannot record a session revocation');
        throw unavailable(
          `the sign-out could not be recorded for every replica (${error instanceof Error ? error.message : String(error)}); the cookie is cleared in this browser`,
        );
      }
      const known = list.has(sid);
      list.add(sid, exp);
      if (!known) announce([sid]);
    };

    app.decorate('revocations', {
      revoked: async (sid: string) => {
        await synced();
        return list.has(sid);
      },
      revoke,
      onRevoked: (listener: (sid: string) => void) => {
        listeners.add(listener);
        return () => {
          listeners.delete(listener);
        };
      },
    });
    app.addHook('onClose', async () => {
      await source.stop();
    });
    done();
  },
  { name: 'revocations', dependencies: ['config', 'kube', 'cache'] },
);
