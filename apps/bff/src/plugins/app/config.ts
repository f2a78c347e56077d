import fp from 'fastify-plugin';
import type { Config } from '../../config/env';

declare module 'fastify' {
  interface FastifyInstance {
    /** The validated configuration (config/env.ts), the root every other plugin depends on. */
    config: Config;
  }
}

export default fp<{ config: Config }>(
  (app, opts, done) => {
    app.decorate('config', opts.config);
    done();
  },
  { name: 'config', fastify: '5.x' },
);
