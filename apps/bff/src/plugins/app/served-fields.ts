import fp from 'fastify-plugin';
import { ServedFieldTrees } from '../../requests/served-fields';

declare module 'fastify' {
  interface FastifyInstance {
    /** What requests may write, by the schemas the management cluster serves (issue 11). */
    servedFields: ServedFieldTrees;
  }
}

export default fp(
  (app, _opts, done) => {
    app.decorate('servedFields', new ServedFieldTrees(app.kube.own, app.log));
    done();
  },
  { name: 'served-fields', dependencies: ['kube'] },
);
