import {
  EventSchema,
  EventsV1EventSchema,
  objectEvents,
  type EventFilter,
  type EventsV1Event,
  type KubeEvent,
  type ObjectEventsView,
} from '@dcs/domain';
import type { Principal } from '../auth/principal';
import { KubeApiError } from '../kube/errors';
import type { ObjectNames } from './object-names';

/**
 * Events, read with the user's own credential from both Event APIs (core/v1 and events.k8s.io/v1:
 * one store on a real API server, each Event listed by both; domain's merge keeps one of each):
 * what the API server lets the user read is what they see, and an API they may not read is named
 * in `sources`, not silently empty. Events are never cached here.
 */

export type SourceState = 'ok' | 'forbidden' | 'unavailable';

const encode = encodeURIComponent;

/** A read of `path` as the user: its value, or `empty` and why. */
export async function readAs<T>(
  principal: Principal,
  path: string,
  parse: (body: unknown) => T,
  empty: T,
  query?: Record<string, string>,
): Promise<{ value: T; state: SourceState }> {
  try {
    const res = await principal.client.request('GET', path, query ? { query } : {});
    return { value: parse(res.body), state: 'ok' };
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) return { value: empty, state: 'ok' };
    if (error instanceof KubeApiError && (error.status === 403 || error.status === 401))
      return { value: empty, state: 'forbidden' };
    return { value: empty, state: 'unavailable' };
  }
}

const itemsOf = (body: unknown): unknown[] =>
  (body as { items?: unknown[] } | undefined)?.items ?? [];

/** One object an Event may be about, as a field selector names it. */
export interface EventSubject {
  kind: string;
  name: string;
}

/** Field selector values are escaped as apimachinery's fields.EscapeValue does. */
const selectorValue = (v: string) =>
  v.replace(/\\/g, '\\\\').replace(/,/g, '\\,').replace(/=/g, '\\=');

/**
 * core/v1 Events of the namespace: those about an object of `wanted`, or, given `subject`, those
 * the API server selects for it (`involvedObject.kind`, `involvedObject.name`).
 */
export function coreEvents(
  principal: Principal,
  namespace: string,
  wanted: ObjectNames | undefined,
  subject?: EventSubject,
) {
  return readAs<KubeEvent[]>(
    principal,
    `/api/v1/namespaces/${encode(namespace)}/events`,
    (body) =>
      itemsOf(body).flatMap((raw) => {
        const p = EventSchema.safeParse({ apiVersion: 'v1', kind: 'Event', ...(raw as object) });
        if (!p.success) return [];
        const io = p.data.involvedObject;
        if (subject) return io.kind === subject.kind && io.name === subject.name ? [p.data] : [];
        return io.kind !== undefined && io.name !== undefined && wanted?.get(io.kind)?.has(io.name)
          ? [p.data]
          : [];
      }),
    [],
    subject
      ? {
          fieldSelector: `involvedObject.kind=${selectorValue(subject.kind)},involvedObject.name=${selectorValue(subject.name)}`,
        }
      : undefined,
  );
}

/** events.k8s.io/v1 Events, as {@link coreEvents} (`regarding.kind`, `regarding.name`). */
export function v1Events(
  principal: Principal,
  namespace: string,
  wanted: ObjectNames | undefined,
  subject?: EventSubject,
) {
  return readAs<EventsV1Event[]>(
    principal,
    `/apis/events.k8s.io/v1/namespaces/${encode(namespace)}/events`,
    (body) =>
      itemsOf(body).flatMap((raw) => {
        const p = EventsV1EventSchema.safeParse({
          apiVersion: 'events.k8s.io/v1',
          kind: 'Event',
          ...(raw as object),
        });
        if (!p.success) return [];
        const r = p.data.regarding;
        if (subject) return r?.kind === subject.kind && r.name === subject.name ? [p.data] : [];
        return r?.kind !== undefined && r.name !== undefined && wanted?.get(r.kind)?.has(r.name)
          ? [p.data]
          : [];
      }),
    [],
    subject
      ? {
          fieldSelector: `regarding.kind=${selectorValue(subject.kind)},regarding.name=${selectorValue(subject.name)}`,
        }
      : undefined,
  );
}

export interface SubjectEventsView extends ObjectEventsView {
  sources: { events: SourceState; eventsV1: SourceState };
}

/** The worst of several reads' states: one refused read makes the source refused. */
export const worstState = (...states: readonly SourceState[]): SourceState =>
  states.includes('forbidden')
    ? 'forbidden'
    : states.includes('unavailable')
      ? 'unavailable'
      : 'ok';

/**
 * The Events about the objects of `wanted` (a pool's: its deployment, sets, machines and their
 * infrastructure), both APIs, from the namespace's lists: newest first, filtered by type and
 * reason (domain's objectEvents).
 */
export async function eventsOfObjects(
  principal: Principal,
  namespace: string,
  wanted: ObjectNames,
  filter: EventFilter,
): Promise<SubjectEventsView> {
  const [core, v1] = await Promise.all([
    coreEvents(principal, namespace, wanted),
    v1Events(principal, namespace, wanted),
  ]);
  return {
    ...objectEvents({ events: core.value, eventsV1: v1.value }, filter),
    sources: { events: core.state, eventsV1: v1.state },
  };
}

/**
 * The Events of a few objects (a machine and its infrastructure, an IP pool), both APIs, each
 * selected by the API server: newest first, filtered by type and reason (domain's objectEvents).
 */
export async function eventsOfSubjects(
  principal: Principal,
  namespace: string,
  subjects: readonly EventSubject[],
  filter: EventFilter,
): Promise<SubjectEventsView> {
  const reads = await Promise.all(
    subjects.map((s) =>
      Promise.all([
        coreEvents(principal, namespace, undefined, s),
        v1Events(principal, namespace, undefined, s),
      ]),
    ),
  );
  const view = objectEvents(
    {
      events: reads.flatMap(([core]) => core.value),
      eventsV1: reads.flatMap(([, v1]) => v1.value),
    },
    filter,
  );
  return {
    ...view,
    sources: {
      events: worstState(...reads.map(([core]) => core.state)),
      eventsV1: worstState(...reads.map(([, v1]) => v1.state)),
    },
  };
}
