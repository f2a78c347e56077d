import fp from 'fastify-plugin';
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
        ...(opts.executor ? { executor: opts.executor } : {}),
      }),
    );
    done();
  },
  { name: 'mutations', dependencies: ['cache', 'auth', 'metrics'] },
);
