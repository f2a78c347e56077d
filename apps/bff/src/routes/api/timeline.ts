import { AuditRecordSchema } from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors';
import { ClusterParams, errorResponses, PoolParams } from '../../http/schemas';
import { clusterTimeline, poolTimeline } from '../../views/timeline';
import { readerOf } from './access';

/**
 * The audit timeline of a pool and of a cluster (issue 12): console records, Events and machine
 * phases in one list, newest first, filterable by user, operation and time. Whoever may read
 * the cluster's views may read it (viewers too); records and Events come with their own rights.
 */

const time = z
  .string()
  .max(64)
  .refine((v) => !Number.isNaN(Date.parse(v)), 'an RFC 3339 time, e.g. 2026-01-01T10:00:00Z');

export const TimelineQuery = z.object({
  user: z.string().max(256).optional(),
  operation: z.string().max(64).optional(),
  since: time.optional(),
  until: time.optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

export const TimelineEntrySchema = z.object({
  id: z.string(),
  time: z.string(),
  source: z.enum(['console', 'event', 'machine']),
  kind: z.enum(['operation', 'event', 'phase', 'deleting', 'stuck']),
  severity: z.enum(['normal', 'warning']),
  object: z.string().optional(),
  user: z.string().optional(),
  operation: z.string().optional(),
  result: z.string().optional(),
  dryRun: z.boolean().optional(),
  record: AuditRecordSchema.optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
  count: z.number().optional(),
  reportedBy: z.string().optional(),
  machines: z.array(z.string()).optional(),
  phase: z.string().optional(),
  code: z.string().optional(),
  text: z.string(),
});

export const TimelineViewSchema = z.object({
  entries: z.array(TimelineEntrySchema),
  facets: z.object({ users: z.array(z.string()), operations: z.array(z.string()) }),
  sources: z.object({
    records: z.enum(['ok', 'forbidden', 'unavailable']),
    events: z.enum(['ok', 'forbidden', 'unavailable']),
    eventsV1: z.enum(['ok', 'forbidden', 'unavailable']),
  }),
  retention: z.object({ days: z.number(), maxBytes: z.number() }),
});

const filterOf = (q: z.infer<typeof TimelineQuery>) => ({
  ...(q.user !== undefined ? { user: q.user } : {}),
  ...(q.operation !== undefined ? { operation: q.operation } : {}),
  ...(q.since !== undefined ? { since: q.since } : {}),
  ...(q.until !== undefined ? { until: q.until } : {}),
  ...(q.limit !== undefined ? { limit: q.limit } : {}),
});

const timeline: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const modelOf = (namespace: string, cluster: string) => {
    const model = app.views.current(namespace, cluster);
    if (!model.exists()) throw notFound(`cluster ${namespace}/${cluster} not found`, 'cluster');
    return model;
  };

  app.get(
    '/clusters/:namespace/:cluster/nodepools/:pool/timeline',
    {
      schema: {
        tags: ['timeline'],
        summary:
          'A pool’s timeline: console operations (who, what, dry-run or applied, result), Events and machine phases, newest first',
        params: PoolParams,
        querystring: TimelineQuery,
        response: { 200: TimelineViewSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, cluster, pool } = request.params;
      const principal = await readerOf(app, request, namespace);
      const model = modelOf(namespace, cluster);
      if (!model.pool(pool))
        throw notFound(`node pool ${pool} not found in ${namespace}/${cluster}`, 'pool');
      return poolTimeline(
        app.cache,
        principal,
        model,
        pool,
        filterOf(request.query),
        app.config.audit,
      );
    },
  );

  app.get(
    '/clusters/:namespace/:cluster/timeline',
    {
      schema: {
        tags: ['timeline'],
        summary:
          'A cluster’s timeline: every console operation on it, its objects’ Events and its machines’ phases, newest first',
        params: ClusterParams,
        querystring: TimelineQuery,
        response: { 200: TimelineViewSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, cluster } = request.params;
      const principal = await readerOf(app, request, namespace);
      return clusterTimeline(
        app.cache,
        principal,
        modelOf(namespace, cluster),
        filterOf(request.query),
        app.config.audit,
      );
    },
  );
  return Promise.resolve();
};

export default timeline;
