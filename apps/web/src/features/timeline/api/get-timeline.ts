import type { AuditRecord, TimelineEntry } from '@dcs/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request, seg } from '../../../lib/api-client';

/** The BFF's timeline of a pool or a cluster (issue 12): merged, filtered, newest first. */
export interface TimelineView {
  entries: (TimelineEntry & { record?: AuditRecord })[];
  facets: { users: string[]; operations: string[] };
  sources: Record<'records' | 'events' | 'eventsV1', 'ok' | 'forbidden' | 'unavailable'>;
  retention: { days: number; maxBytes: number };
}

export interface TimelineFilter {
  user?: string;
  operation?: string;
  since?: string;
}

/** `pool` absent: the cluster's timeline. */
export interface TimelineScope {
  namespace: string;
  cluster: string;
  pool?: string;
}

const pathOf = ({ namespace, cluster, pool }: TimelineScope) =>
  `/clusters/${seg(namespace)}/${seg(cluster)}${pool !== undefined ? `/nodepools/${seg(pool)}` : ''}/timeline`;

export const getTimeline = (scope: TimelineScope, filter: TimelineFilter, signal?: AbortSignal) =>
  request<TimelineView>(pathOf(scope), {
    signal,
    query: {
      ...(filter.user ? { user: filter.user } : {}),
      ...(filter.operation ? { operation: filter.operation } : {}),
      ...(filter.since ? { since: filter.since } : {}),
    },
  });

export const timelineQueryOptions = (scope: TimelineScope, filter: TimelineFilter) =>
  queryOptions({
    queryKey: ['timeline', scope.namespace, scope.cluster, scope.pool ?? '', filter] as const,
    queryFn: ({ signal }) => getTimeline(scope, filter, signal),
    refetchInterval: 10_000,
    placeholderData: keepPreviousData,
  });

export const useTimeline = (scope: TimelineScope, filter: TimelineFilter) =>
  useQuery(timelineQueryOptions(scope, filter));
