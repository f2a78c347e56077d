import { hostname } from 'node:os';
import fp from 'fastify-plugin';
import { AuditRecorder } from '../../audit/recorder';
import { MutationService } from '../../mutations/service';
import type { ExecutorOptions } from '../../plan/executor';

declare module 'fastify' {
  interface FastifyInstance {
    mutations: MutationService;
  }
}

export default fp<{ executor?: ExecutorOptions }>(
  (app, opts, done) => {
    app.decorate(
      'mutations',
      new MutationService({
        cache: app.cache,
        globals: () => app.globals(),
        authorize: (principal, checks) => app.authorize(principal, checks),
        log: app.log,
        metrics: app.metrics,
        upstream: () => app.upstream.status(),
        apiVersions: () => app.apiVersions.choice,
        synced: () => app.whenSynced(),
        // Issue 12: every operation also recorded in the management cluster, as the console.
        recorder: new AuditRecorder({
          client: app.kube.own,
          log: app.log,
          metrics: app.metrics,
          bounds: app.config.audit,
          instance: hostname(),
        }),
        ...(opts.executor ? { executor: opts.executor } : {}),
      }),
    );
    done();
  },
  { name: 'mutations', dependencies: ['cache', 'auth', 'metrics', 'kube', 'config'] },
);
