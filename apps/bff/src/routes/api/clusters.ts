import type { ClusterView } from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors';
import { rightsIn } from '../../auth/rights';
import {
  ClusterContextSchema,
  ClusterParams,
  ClusterViewSchema,
  errorResponses,
} from '../../http/schemas';
import { listChecks, readerOf, VIEW_KINDS } from './access';

/** `GET /api/v1/clusters` and `GET /api/v1/clusters/{namespace}/{cluster}/context`. */
const clusters: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/clusters',
    {
      schema: {
        tags: ['clusters'],
        summary: 'Every cluster in the namespaces the user may read',
        response: { 200: z.array(ClusterViewSchema), ...errorResponses },
      },
    },
    async (request) => {
      const principal = await app.principalOf(request);
      const models = app.views.all();
      const namespaces = [...new Set(models.map((m) => m.namespace))];
      // Clusters of a namespace are shown only to users who may list what they are made of.
      const readable = new Set<string>();
      await Promise.all(
        namespaces.map(async (ns) => {
          const denied = await app.authorizer.denied(principal, listChecks(VIEW_KINDS, ns));
          if (denied.length === 0) readable.add(ns);
        }),
      );
      const out: ClusterView[] = [];
      for (const m of models) {
        if (!readable.has(m.namespace)) continue;
        const view = app.views.refresh(m).cluster();
        if (view) out.push(view);
      }
      return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
  );

  app.get(
    '/clusters/:namespace/:cluster/context',
    {
      schema: {
        tags: ['clusters'],
        summary:
          'What forms need to validate in the browser (the ValidationContext) and the user’s rights, each refused one with the access reviews that said no',
        params: ClusterParams,
        response: { 200: ClusterContextSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, cluster } = request.params;
      const principal = await readerOf(app, request, namespace);
      if (!app.cache.stores.Cluster.get(namespace, cluster)) {
        throw notFound(`cluster ${namespace}/${cluster} not found`, 'cluster');
      }
      const [ctx, permissions] = await Promise.all([
        app.mutations.context(principal, namespace, cluster),
        rightsIn(app.authorizer, principal, namespace),
      ]);
      const g = app.globals();
      return {
        ...ctx,
        ...(g.versionsError !== undefined ? { versionsError: g.versionsError } : {}),
        permissions,
        user: { username: principal.username, groups: principal.groups },
      };
    },
  );
  return Promise.resolve();
};

export default clusters;
