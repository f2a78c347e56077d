import type { KubeEvent } from '../schemas/core';
import { mergeTimeline, type EventsV1Event, type TimelineEntry } from './timeline';

/**
 * The Events of one object's page (issue 26, item 7): both Event APIs merged as the timeline
 * merges them (one entry per Event, newest first), filtered by type and reason, with the types
 * and reasons the unfiltered list holds, for the page's filters.
 */

export type EventType = 'Normal' | 'Warning';

export interface EventFilter {
  type?: EventType | undefined;
  /** Exact reason, e.g. `FailedDrain`. */
  reason?: string | undefined;
  /** At most this many, the newest (default {@link OBJECT_EVENTS_DEFAULT_LIMIT}). */
  limit?: number | undefined;
}

export interface ObjectEventsView {
  entries: TimelineEntry[];
  /** Of the unfiltered Events: how many of each type, and every reason, sorted. */
  facets: { types: Record<EventType, number>; reasons: string[] };
  /** How many Events match the filter (entries may hold fewer: the limit). */
  matching: number;
}

export const OBJECT_EVENTS_DEFAULT_LIMIT = 200;

const typeOf = (e: TimelineEntry): EventType => (e.severity === 'warning' ? 'Warning' : 'Normal');

export function objectEvents(
  input: { events?: readonly KubeEvent[]; eventsV1?: readonly EventsV1Event[] },
  filter: EventFilter = {},
): ObjectEventsView {
  const all = mergeTimeline(
    { records: [], events: input.events ?? [], eventsV1: input.eventsV1 ?? [] },
    { limit: Number.MAX_SAFE_INTEGER },
  );
  const types: Record<EventType, number> = { Normal: 0, Warning: 0 };
  const reasons = new Set<string>();
  for (const e of all) {
    types[typeOf(e)]++;
    if (e.reason) reasons.add(e.reason);
  }
  const matching = all.filter(
    (e) =>
      (filter.type === undefined || typeOf(e) === filter.type) &&
      (filter.reason === undefined || filter.reason === '' || e.reason === filter.reason),
  );
  return {
    entries: matching.slice(0, filter.limit ?? OBJECT_EVENTS_DEFAULT_LIMIT),
    facets: { types, reasons: [...reasons].sort() },
    matching: matching.length,
  };
}
