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
      // Before the caches' first list the list would silently miss clusters.
      await app.whenSynced();
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
      const principal = await app.principalOf(request);
      // One round of upstream requests, not two (issue 14's cold start: the first context after
      // a start took 11.8 s in CI, most of it access reviews asked one wave after the other).
      // The rights' reviews and the Secrets are asked with the user's own credential, so asking
      // them before the read is authorized reveals nothing: their answers are used only after.
      const rights = rightsIn(app.authorizer, principal, namespace);
      const ctx = (async () => {
        await app.whenSynced();
        return app.mutations.context(principal, namespace, cluster);
      })();
      rights.catch(() => undefined);
      ctx.catch(() => undefined);
      await readerOf(app, request, namespace);
      if (!app.cache.stores.Cluster.get(namespace, cluster)) {
        throw notFound(`cluster ${namespace}/${cluster} not found`, 'cluster');
      }
      const [context, permissions] = await Promise.all([ctx, rights]);
      const g = app.globals();
      return {
        ...context,
        ...(g.versionsError !== undefined ? { versionsError: g.versionsError } : {}),
        permissions,
        user: { username: principal.username, groups: principal.groups },
      };
    },
  );
  return Promise.resolve();
};

export default clusters;
