import type { EventType, ObjectEventsView, TimelineEntry } from '@dcs/domain';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
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
/** The soonest the list is read again after the page's object changed on the stream. */
export const OBJECT_EVENTS_FOLLOW_MIN_MS = 1_000;

/**
 * Whose Events: a page's objects as `Kind/name` (at most 8, the BFF's bound), or a pool's (its
 * deployment, sets, machines and their infrastructure, gathered by the BFF).
 */
export type EventsSource =
  { objects: readonly string[] } | { pool: { cluster: string; pool: string } };

/**
 * The Events of `source`, read again every OBJECT_EVENTS_REFRESH_MS while the page is visible,
 * and soon after `follow` changes: the page's object as the stream keeps it (a new identity on
 * each change). A controller writes its Event as it acts on the object, so a status change on the
 * stream is when a new Event is likely: the list follows within OBJECT_EVENTS_FOLLOW_MIN_MS
 * instead of the next poll (throttled: a burst of changes costs one read per interval).
 */
export function useObjectEvents(
  namespace: string,
  source: EventsSource,
  filter: ObjectEventsFilter,
  follow?: unknown,
) {
  const f = {
    ...(filter.type ? { type: filter.type } : {}),
    ...(filter.reason ? { reason: filter.reason } : {}),
  };
  const pool = 'pool' in source ? source.pool : undefined;
  const objects = 'objects' in source ? source.objects : [];
  const queryKey = pool
    ? [...queryKeys.poolEvents(namespace, pool.cluster, pool.pool), f]
    : queryKeys.objectEvents(namespace, objects, f);
  useRefetchOnChange(queryKey, follow);
  return useQuery({
    queryKey,
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

/** Reads `queryKey` again when `value` changes identity, at most every OBJECT_EVENTS_FOLLOW_MIN_MS. */
function useRefetchOnChange(queryKey: readonly unknown[], value: unknown): void {
  const client = useQueryClient();
  const previous = useRef(value);
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const key = useRef(queryKey);
  key.current = queryKey;
  useEffect(() => {
    const before = previous.current;
    previous.current = value;
    if (value === undefined || before === undefined || before === value) return;
    if (timer.current !== undefined) return;
    const refetch = () => {
      timer.current = undefined;
      last.current = Date.now();
      void client.invalidateQueries({ queryKey: key.current, exact: true });
    };
    const wait = last.current + OBJECT_EVENTS_FOLLOW_MIN_MS - Date.now();
    if (wait <= 0) refetch();
    else timer.current = setTimeout(refetch, wait);
  }, [client, value]);
  useEffect(
    () => () => {
      clearTimeout(timer.current);
    },
    [],
  );
}
