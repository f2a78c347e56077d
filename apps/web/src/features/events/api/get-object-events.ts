import type { EventType, ObjectEventsView, TimelineEntry } from '@dcs/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request, seg } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

type SourceState = 'ok' | 'forbidden' | 'unavailable';

/** The Events of a page's objects as the BFF answers (`GET /namespaces/{ns}/events`). */
export interface ObjectEventsWire extends ObjectEventsView {
  entries: TimelineEntry[];
  sources: { events: SourceState; eventsV1: SourceState };
}

export interface ObjectEventsFilter {
  type?: EventType | undefined;
  reason?: string | undefined;
}

/** How often the list is read again while the page is open: Events are not on the stream. */
export const OBJECT_EVENTS_REFRESH_MS = 5_000;

/**
 * Whose Events: a page's objects as `Kind/name` (at most 8, the BFF's bound), or a pool's (its
 * deployment, sets, machines and their infrastructure, gathered by the BFF).
 */
export type EventsSource =
  { objects: readonly string[] } | { pool: { cluster: string; pool: string } };

export function useObjectEvents(
  namespace: string,
  source: EventsSource,
  filter: ObjectEventsFilter,
) {
  const f = {
    ...(filter.type ? { type: filter.type } : {}),
    ...(filter.reason ? { reason: filter.reason } : {}),
  };
  const pool = 'pool' in source ? source.pool : undefined;
  const objects = 'objects' in source ? source.objects : [];
  return useQuery({
    queryKey: pool
      ? [...queryKeys.poolEvents(namespace, pool.cluster, pool.pool), f]
      : queryKeys.objectEvents(namespace, objects, f),
    queryFn: ({ signal }) =>
      pool
        ? request<ObjectEventsWire>(
            `/clusters/${seg(namespace)}/${seg(pool.cluster)}/nodepools/${seg(pool.pool)}/events`,
            { query: f, signal },
          )
        : request<ObjectEventsWire>(`/namespaces/${seg(namespace)}/events`, {
            query: { object: objects, ...f },
            signal,
          }),
    enabled: pool !== undefined || objects.length > 0,
    refetchInterval: OBJECT_EVENTS_REFRESH_MS,
    // A new filter keeps the last list on screen until its own arrives.
    placeholderData: keepPreviousData,
  });
}
