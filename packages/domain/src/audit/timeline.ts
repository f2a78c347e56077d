import { z } from 'zod';
import type { Machine } from '../schemas/capi';
import type { KubeEvent } from '../schemas/core';
import { ObjectMetaSchema, ObjectReferenceSchema } from '../schemas/meta';
import type { Diagnosis } from '../views/diagnosis';
import {
  AUDIT_RECORD_ANNOTATION,
  AUDIT_REPORTING_CONTROLLER,
  auditSummary,
  isAuditFailure,
  type AuditRecord,
} from './record';

/**
 * The timeline of a pool or a cluster (issue 12): the console's audit records, the controllers'
 * Events (core/v1 and events.k8s.io/v1) and the machines' phase transitions, merged into one
 * list, newest first: "alice scaled dev-west-full 4 → 6 at 10:02; 2 machines Provisioning;
 * 1 stuck at VM placement since 10:05". Pure: the BFF gathers the inputs, this decides.
 */

/** An events.k8s.io/v1 Event, as far as the timeline reads it. */
export const EventsV1EventSchema = z.looseObject({
  apiVersion: z.literal('events.k8s.io/v1'),
  kind: z.literal('Event'),
  metadata: ObjectMetaSchema,
  eventTime: z.string().nullable().optional(),
  regarding: ObjectReferenceSchema.optional(),
  related: ObjectReferenceSchema.optional(),
  reason: z.string().optional(),
  note: z.string().optional(),
  type: z.string().optional(),
  action: z.string().optional(),
  reportingController: z.string().optional(),
  reportingInstance: z.string().optional(),
  series: z
    .looseObject({ count: z.number().int().optional(), lastObservedTime: z.string().optional() })
    .optional(),
  deprecatedCount: z.number().int().optional(),
  deprecatedLastTimestamp: z.string().nullable().optional(),
});
export type EventsV1Event = z.infer<typeof EventsV1EventSchema>;

/** What the timeline knows of one machine: its current phase and since when, its deletion, a stuck diagnosis. */
export interface MachinePhaseFact {
  name: string;
  phase: string;
  /** When it entered `phase` (Cluster API's `status.lastUpdated`), else its creation. */
  since?: string;
  createdAt?: string;
  deletingSince?: string;
  /** T-1 and its neighbours: the machine is stuck, since when. */
  stuck?: { code: string; since?: string };
}

/** The facts of a machine from its object and, when it is failed or stuck, its diagnosis. */
export function machinePhaseFact(machine: Machine, diagnosis?: Diagnosis): MachinePhaseFact {
  const createdAt = machine.metadata.creationTimestamp;
  const since = machine.status?.lastUpdated ?? createdAt;
  const deletingSince = machine.metadata.deletionTimestamp;
  return {
    name: machine.metadata.name ?? '',
    phase: machine.status?.phase ?? 'Pending',
    ...(since !== undefined ? { since } : {}),
    ...(createdAt !== undefined ? { createdAt } : {}),
    ...(deletingSince !== undefined ? { deletingSince } : {}),
    ...(diagnosis
      ? {
          stuck: {
            code: diagnosis.code,
            ...(diagnosis.since !== undefined ? { since: diagnosis.since } : {}),
          },
        }
      : {}),
  };
}

export type TimelineSource = 'console' | 'event' | 'machine';
export type TimelineKind = 'operation' | 'event' | 'phase' | 'deleting' | 'stuck';

export interface TimelineEntry {
  /** Stable across requests: the record id, the Event's uid/name, or the machines' phase and time. */
  id: string;
  /** RFC 3339. */
  time: string;
  source: TimelineSource;
  kind: TimelineKind;
  severity: 'normal' | 'warning';
  /** `Kind/name` the entry is about (absent for a group of machines: see `machines`). */
  object?: string;
  /** console: who, which operation, how it ended. */
  user?: string;
  operation?: string;
  result?: string;
  dryRun?: boolean;
  record?: AuditRecord;
  /** event: the controller's words. */
  reason?: string;
  message?: string;
  count?: number;
  reportedBy?: string;
  /** phase / deleting / stuck: the machines, and the phase or diagnosis code. */
  machines?: string[];
  phase?: string;
  code?: string;
  /** The English one-liner (diagnostics bundle, logs); screens build their own from the fields. */
  text: string;
}

export interface TimelineFilter {
  /** Exact user name: only console entries by this user. */
  user?: string;
  /** An operation id (`O-SCALE-UP`) or action (`nodepool.scale`): only console entries of it. */
  operation?: string;
  /** RFC 3339 bounds, inclusive. */
  since?: string;
  until?: string;
  /** At most this many entries, the newest. */
  limit?: number;
}

export interface TimelineInput {
  records: readonly AuditRecord[];
  events?: readonly KubeEvent[];
  eventsV1?: readonly EventsV1Event[];
  machines?: readonly MachinePhaseFact[];
}

/** Machines entering the same phase within this window are one entry ("2 machines Provisioning"). */
export const TIMELINE_GROUP_WINDOW_MS = 60_000;
export const TIMELINE_DEFAULT_LIMIT = 500;

const ms = (t: string | undefined | null): number => {
  const v = t ? Date.parse(t) : Number.NaN;
  return Number.isNaN(v) ? Number.NEGATIVE_INFINITY : v;
};

function recordEntry(r: AuditRecord): TimelineEntry {
  return {
    id: `record:${r.id}`,
    time: r.time,
    source: 'console',
    kind: 'operation',
    severity: isAuditFailure(r.result) ? 'warning' : 'normal',
    ...(r.target ? { object: `${r.target.kind}/${r.target.name}` } : {}),
    user: r.user,
    operation: r.operation,
    result: r.result,
    dryRun: r.dryRun,
    record: r,
    text: auditSummary(r),
  };
}

function coreEventEntry(e: KubeEvent): TimelineEntry | undefined {
  const time = e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata.creationTimestamp;
  if (!time) return undefined;
  const object = `${e.involvedObject.kind ?? ''}/${e.involvedObject.name ?? ''}`;
  const reason = e.reason ?? '';
  const message = e.message ?? '';
  const count = e.count ?? 1;
  // An empty reportingComponent (old clients) falls back to the legacy source.component.
  const reportedBy = [e.reportingComponent, e.source?.component].find(
    (c) => c !== undefined && c !== '',
  );
  return {
    id: `event:${e.metadata.uid ?? e.metadata.name ?? `${object}/${reason}/${time}`}`,
    time,
    source: 'event',
    kind: 'event',
    severity: e.type === 'Warning' ? 'warning' : 'normal',
    object,
    reason,
    message,
    count,
    ...(reportedBy ? { reportedBy } : {}),
    text: `${object} ${reason}: ${message}${count > 1 ? ` (×${String(count)})` : ''}`,
  };
}

function v1EventEntry(e: EventsV1Event): TimelineEntry | undefined {
  const time =
    e.series?.lastObservedTime ??
    e.eventTime ??
    e.deprecatedLastTimestamp ??
    e.metadata.creationTimestamp;
  if (!time) return undefined;
  const object = `${e.regarding?.kind ?? ''}/${e.regarding?.name ?? ''}`;
  const reason = e.reason ?? '';
  const message = e.note ?? '';
  const count = e.series?.count ?? e.deprecatedCount ?? 1;
  return {
    id: `event:${e.metadata.uid ?? e.metadata.name ?? `${object}/${reason}/${time}`}`,
    time,
    source: 'event',
    kind: 'event',
    severity: e.type === 'Warning' ? 'warning' : 'normal',
    object,
    reason,
    message,
    count,
    ...(e.reportingController ? { reportedBy: e.reportingController } : {}),
    text: `${object} ${reason}: ${message}${count > 1 ? ` (×${String(count)})` : ''}`,
  };
}

/** One entry per group of machines that did the same thing within TIMELINE_GROUP_WINDOW_MS. */
function machineEntries(facts: readonly MachinePhaseFact[]): TimelineEntry[] {
  interface Item {
    kind: 'phase' | 'deleting' | 'stuck';
    key: string;
    time: string;
    machine: string;
  }
  const items: Item[] = [];
  for (const f of facts) {
    if (f.deletingSince !== undefined)
      items.push({ kind: 'deleting', key: 'Deleting', time: f.deletingSince, machine: f.name });
    else if (f.since !== undefined)
      items.push({ kind: 'phase', key: f.phase, time: f.since, machine: f.name });
    if (f.stuck)
      items.push({
        kind: 'stuck',
        key: f.stuck.code,
        time: f.stuck.since ?? f.since ?? f.createdAt ?? '',
        machine: f.name,
      });
  }
  items.sort((a, b) => ms(a.time) - ms(b.time) || (a.machine < b.machine ? -1 : 1));
  const groups: {
    kind: Item['kind'];
    key: string;
    time: string;
    last: number;
    machines: string[];
  }[] = [];
  for (const it of items) {
    if (ms(it.time) === Number.NEGATIVE_INFINITY) continue;
    const g = groups.find(
      (x) =>
        x.kind === it.kind && x.key === it.key && ms(it.time) - x.last <= TIMELINE_GROUP_WINDOW_MS,
    );
    if (g) {
      g.machines.push(it.machine);
      g.last = ms(it.time);
    } else
      groups.push({
        kind: it.kind,
        key: it.key,
        time: it.time,
        last: ms(it.time),
        machines: [it.machine],
      });
  }
  return groups.map((g) => {
    const n = g.machines.length;
    const noun = n === 1 ? '1 machine' : `${String(n)} machines`;
    const text =
      g.kind === 'stuck'
        ? `${noun} stuck (${g.key}) since ${g.time}: ${g.machines.join(', ')}`
        : g.kind === 'deleting'
          ? `${noun} Deleting: ${g.machines.join(', ')}`
          : `${noun} ${g.key}: ${g.machines.join(', ')}`;
    return {
      id: `machines:${g.kind}:${g.key}:${g.time}`,
      time: g.time,
      source: 'machine' as const,
      kind: g.kind,
      severity:
        g.kind === 'stuck' || g.key === 'Failed' ? ('warning' as const) : ('normal' as const),
      machines: g.machines,
      ...(g.kind === 'stuck' ? { code: g.key } : { phase: g.key }),
      text,
    };
  });
}

/** Whether an Event only announces a console record the timeline already shows. */
function announcesRecord(
  e: { metadata: { annotations?: Record<string, string> | undefined } },
  ids: ReadonlySet<string>,
): boolean {
  const id = e.metadata.annotations?.[AUDIT_RECORD_ANNOTATION];
  return id !== undefined && ids.has(id);
}

function matches(entry: TimelineEntry, f: TimelineFilter): boolean {
  if (f.user !== undefined && f.user !== '' && entry.user !== f.user) return false;
  if (
    f.operation !== undefined &&
    f.operation !== '' &&
    entry.operation !== f.operation &&
    entry.record?.action !== f.operation
  )
    return false;
  const t = ms(entry.time);
  if (f.since !== undefined && f.since !== '' && t < ms(f.since)) return false;
  if (f.until !== undefined && f.until !== '' && t > ms(f.until)) return false;
  return true;
}

/**
 * The merged timeline, newest first, filtered. An Event the console wrote about a record the
 * input also holds is not shown twice (the record is the richer of the two); an Event whose
 * record is gone (dropped by the bounds, or the ConfigMap unreadable) is shown as an Event.
 * Entries at the same instant keep a stable order: console, then events, then machines.
 */
export function mergeTimeline(input: TimelineInput, filter: TimelineFilter = {}): TimelineEntry[] {
  const ids = new Set(input.records.map((r) => r.id));
  const entries: TimelineEntry[] = [...input.records.map(recordEntry)];
  for (const e of input.events ?? []) {
    if (e.reportingComponent === AUDIT_REPORTING_CONTROLLER && announcesRecord(e, ids)) continue;
    const x = coreEventEntry(e);
    if (x) entries.push(x);
  }
  for (const e of input.eventsV1 ?? []) {
    if (announcesRecord(e, ids)) continue;
    const x = v1EventEntry(e);
    if (x) entries.push(x);
  }
  entries.push(...machineEntries(input.machines ?? []));
  const seen = new Set<string>();
  const rank: Record<TimelineSource, number> = { console: 0, event: 1, machine: 2 };
  const out = entries
    .filter((e) => {
      if (seen.has(e.id)) return false;
      seen.add(e.id);
      return matches(e, filter);
    })
    .sort(
      (a, b) =>
        ms(b.time) - ms(a.time) ||
        rank[a.source] - rank[b.source] ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
  return out.slice(0, filter.limit ?? TIMELINE_DEFAULT_LIMIT);
}

/** The users and operations present in a timeline: what the screen's filters offer. */
export function timelineFacets(entries: readonly TimelineEntry[]): {
  users: string[];
  operations: string[];
} {
  const users = new Set<string>();
  const operations = new Set<string>();
  for (const e of entries) {
    if (e.user !== undefined) users.add(e.user);
    if (e.operation !== undefined) operations.add(e.operation);
  }
  return { users: [...users].sort(), operations: [...operations].sort() };
}
