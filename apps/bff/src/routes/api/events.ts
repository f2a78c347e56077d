import { OBJECT_EVENTS_DEFAULT_LIMIT, type EventFilter } from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, NamespaceParams } from '../../http/schemas';
import { eventsOfSubjects, type EventSubject } from '../../views/events';
import { TimelineEntrySchema } from './timeline';

/**
 * `GET /namespaces/{ns}/events?object=Kind/name…` (issue 26, item 7): the Events of the objects
 * of one page (a machine and its infrastructure, an IP pool), both Event APIs, newest first,
 * filterable by type and reason. Read with the user's own credential, each object selected by the
 * API server (field selectors): who may not read Events is told so in `sources`.
 */

/** At most this many objects per page: each costs two reads of the API server. */
export const MAX_EVENT_SUBJECTS = 8;

const subject = z
  .string()
  .max(320)
  .regex(
    /^[A-Z][A-Za-z0-9]{0,62}\/[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/,
    'Kind/name, e.g. Machine/demo-md-0-abc12-x7k2p',
  );

/** The filters of every Events list. */
export const EventFilterQuery = z.object({
  type: z.enum(['Normal', 'Warning']).optional(),
  reason: z.string().max(128).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

export const EventsQuery = EventFilterQuery.extend({
  object: z
    .union([subject, z.array(subject).min(1).max(MAX_EVENT_SUBJECTS)], {
      error: (issue) =>
        issue.input === undefined
          ? 'required: the object whose Events to list, as Kind/name (repeat for several)'
          : `Kind/name of an object, at most ${String(MAX_EVENT_SUBJECTS)} of them`,
    })
    .transform((v) => (Array.isArray(v) ? v : [v])),
});

export const EventsViewSchema = z.object({
  entries: z.array(TimelineEntrySchema),
  facets: z.object({
    types: z.object({ Normal: z.number(), Warning: z.number() }),
    reasons: z.array(z.string()),
  }),
  matching: z.number(),
  sources: z.object({
    events: z.enum(['ok', 'forbidden', 'unavailable']),
    eventsV1: z.enum(['ok', 'forbidden', 'unavailable']),
  }),
});

export const filterOf = (q: z.infer<typeof EventFilterQuery>): EventFilter => ({
  type: q.type,
  reason: q.reason,
  limit: q.limit ?? OBJECT_EVENTS_DEFAULT_LIMIT,
});

const subjectOf = (s: string): EventSubject => {
  const i = s.indexOf('/');
  return { kind: s.slice(0, i), name: s.slice(i + 1) };
};

const events: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/namespaces/:namespace/events',
    {
      schema: {
        tags: ['events'],
        summary:
          'Events of a page’s objects (both Event APIs, read as the user), newest first, by type and reason',
        params: NamespaceParams,
        querystring: EventsQuery,
        response: { 200: EventsViewSchema, ...errorResponses },
      },
    },
    async (request) => {
      const principal = await app.principalOf(request);
      const { object, ...filter } = request.query;
      const subjects = [...new Set(object)].map(subjectOf);
      return eventsOfSubjects(principal, request.params.namespace, subjects, filterOf(filter));
    },
  );
  return Promise.resolve();
};

export default events;
