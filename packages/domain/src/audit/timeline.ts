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

/** A phase a machine entered, and when: one step of its history. */
export interface MachineTransition {
  phase: string;
  /** RFC 3339. */
  time: string;
}

/** What the timeline knows of one machine: its phase history, its deletion, a stuck diagnosis. */
export interface MachinePhaseFact {
  name: string;
  phase: string;
  /** When it entered `phase` (Cluster API's `status.lastUpdated`), else its creation. */
  since?: string;
  createdAt?: string;
  deletingSince?: string;
  /**
   * The phases it went through, oldest first (machineTransitions). Absent: only the current
   * phase at `since` is known.
   */
  transitions?: MachineTransition[];
  /** T-1 and its neighbours: the machine is stuck, since when. */
  stuck?: { code: string; since?: string };
}

/** Machine conditions as far as the transitions read them; `status.v1beta2` is Cluster API ≥ 1.9's. */
const TransitionConditionsSchema = z.array(
  z.looseObject({
    type: z.string(),
    status: z.string(),
    lastTransitionTime: z.string().optional(),
  }),
);
const V1Beta2StatusSchema = z.looseObject({
  v1beta2: z.looseObject({ conditions: TransitionConditionsSchema.optional() }).optional(),
});

/** The earliest time one of `types` turned True, in the v1beta1 or the v1beta2 conditions. */
function trueSince(machine: Machine, types: readonly string[]): string | undefined {
  const v1beta2 = V1Beta2StatusSchema.safeParse(machine.status ?? {});
  const all = [
    ...(machine.status?.conditions ?? []),
    ...((v1beta2.success ? v1beta2.data.v1beta2?.conditions : undefined) ?? []),
  ];
  const times = all
    .filter((c) => types.includes(c.type) && c.status === 'True' && c.lastTransitionTime)
    .map((c) => c.lastTransitionTime ?? '')
    .filter((t) => !Number.isNaN(Date.parse(t)))
    .sort((a, b) => Date.parse(a) - Date.parse(b));
  return times[0];
}

const PHASE_ORDER = ['Pending', 'Provisioning', 'Provisioned', 'Running'] as const;

/**
 * The phases a machine went through and when, derived only from what the cluster keeps (issue 12):
 * no console memory, so every BFF replica tells the same history, before and after a restart.
 * Cluster API sets the phase from facts (machine_controller_phases.go: Provisioning once the
 * bootstrap data is ready, Provisioned once the provider ID is set, Running once the nodeRef is,
 * Failed on a failure reason, Deleting on a deletionTimestamp) and stamps `status.lastUpdated`
 * when the phase changes, so:
 * - Pending: the creationTimestamp;
 * - Provisioning: BootstrapReady (v1beta2 BootstrapConfigReady) turning True;
 * - Provisioned: InfrastructureReady turning True (the provider ID comes with it);
 * - Running: the `SuccessfulSetNodeRef` Event of the Machine controller when still kept
 *   (`nodeRefAt`), else NodeHealthy (v1beta2 NodeReady) turning True, the first time the
 *   cluster records after the nodeRef;
 * - the current phase: `status.lastUpdated`, the exact time, over any of the above;
 * - Deleting: the deletionTimestamp.
 * A phase the facts show was skipped (bootstrap and infrastructure ready in one reconcile) or
 * whose condition turned True again later than the next phase (a flap) is left out rather than
 * shown out of order. A condition's time is its last transition, so after a flap the history
 * shows the latest one: the cluster keeps no more.
 */
export function machineTransitions(machine: Machine, nodeRefAt?: string): MachineTransition[] {
  const status = machine.status ?? {};
  const phase = status.phase ?? 'Pending';
  const current = (p: string) => (phase === p ? status.lastUpdated : undefined);
  const bootstrapReady =
    status.bootstrapReady === true ||
    machine.spec?.bootstrap.dataSecretName !== undefined ||
    trueSince(machine, ['BootstrapReady', 'BootstrapConfigReady']) !== undefined;
  const provisioned =
    (machine.spec?.providerID ?? '') !== '' || status.infrastructureReady === true;
  const reached = status.nodeRef ? 3 : provisioned ? 2 : bootstrapReady ? 1 : 0;
  const times: (string | undefined)[] = [
    machine.metadata.creationTimestamp,
    reached >= 1
      ? (current('Provisioning') ?? trueSince(machine, ['BootstrapReady', 'BootstrapConfigReady']))
      : undefined,
    reached >= 2
      ? (current('Provisioned') ?? trueSince(machine, ['InfrastructureReady']))
      : undefined,
    reached >= 3
      ? (current('Running') ?? nodeRefAt ?? trueSince(machine, ['NodeHealthy', 'NodeReady']))
      : undefined,
  ];
  const out: MachineTransition[] = [];
  PHASE_ORDER.forEach((p, i) => {
    const time = times[i];
    if (time === undefined || Number.isNaN(Date.parse(time))) return;
    // Left out when a later phase is known to have begun at or before it (skipped, or a flap).
    const later = times.slice(i + 1).find((t) => t !== undefined && !Number.isNaN(Date.parse(t)));
    if (i > 0 && later !== undefined && Date.parse(later) <= Date.parse(time)) return;
    out.push({ phase: p, time });
  });
  if (phase === 'Failed' && status.lastUpdated) out.push({ phase, time: status.lastUpdated });
  // A phase of a newer Cluster API this console does not know: shown as it is named.
  if (
    !(PHASE_ORDER as readonly string[]).includes(phase) &&
    phase !== 'Failed' &&
    phase !== 'Deleting' &&
    status.lastUpdated
  )
    out.push({ phase, time: status.lastUpdated });
  const deleting = machine.metadata.deletionTimestamp;
  if (deleting) out.push({ phase: 'Deleting', time: deleting });
  return out;
}

/**
 * When the Machine controller set each machine's nodeRef, from its `SuccessfulSetNodeRef` Events
 * (both Event APIs), by machine name: the Running time of a machine no longer Running.
 */
export function nodeRefTimes(
  events: readonly KubeEvent[] = [],
  eventsV1: readonly EventsV1Event[] = [],
): Map<string, string> {
  const out = new Map<string, string>();
  const keep = (name: string | undefined, time: string | null | undefined) => {
    if (!name || !time || Number.isNaN(Date.parse(time))) return;
    const had = out.get(name);
    // The first setting is the transition; a repeat (series) is not.
    if (had === undefined || Date.parse(time) < Date.parse(had)) out.set(name, time);
  };
  for (const e of events)
    if (e.reason === 'SuccessfulSetNodeRef' && e.involvedObject.kind === 'Machine')
      keep(
        e.involvedObject.name,
        e.firstTimestamp ?? e.eventTime ?? e.lastTimestamp ?? e.metadata.creationTimestamp,
      );
  for (const e of eventsV1)
    if (e.reason === 'SuccessfulSetNodeRef' && e.regarding?.kind === 'Machine')
      keep(e.regarding.name, e.eventTime ?? e.metadata.creationTimestamp);
  return out;
}

/** The facts of a machine from its object and, when it is failed or stuck, its diagnosis. */
export function machinePhaseFact(
  machine: Machine,
  diagnosis?: Diagnosis,
  nodeRefAt?: string,
): MachinePhaseFact {
  const createdAt = machine.metadata.creationTimestamp;
  const since = machine.status?.lastUpdated ?? createdAt;
  const deletingSince = machine.metadata.deletionTimestamp;
  return {
    name: machine.metadata.name ?? '',
    phase: machine.status?.phase ?? 'Pending',
    ...(since !== undefined ? { since } : {}),
    ...(createdAt !== undefined ? { createdAt } : {}),
    ...(deletingSince !== undefined ? { deletingSince } : {}),
    transitions: machineTransitions(machine, nodeRefAt),
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
  /** event: how many times it was reported; machines: how many machines the group holds. */
  count?: number;
  reportedBy?: string;
  /**
   * phase / deleting / stuck: the machines (at most TIMELINE_GROUP_NAMES_MAX names; `count` is
   * how many), and the phase or diagnosis code.
   */
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

/** Machines entering the same phase within this window of the group's first are one entry ("2 machines Provisioning"). */
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

/** A group entry names at most this many machines (`count` has them all): a 200-machine scale stays readable. */
export const TIMELINE_GROUP_NAMES_MAX = 20;

/** One entry per group of machines that did the same thing within a minute of the group's first. */
function machineEntries(facts: readonly MachinePhaseFact[]): TimelineEntry[] {
  interface Item {
    kind: 'phase' | 'deleting' | 'stuck';
    key: string;
    time: string;
    machine: string;
  }
  const items: Item[] = [];
  for (const f of facts) {
    if (f.transitions !== undefined) {
      for (const t of f.transitions)
        items.push({
          kind: t.phase === 'Deleting' ? 'deleting' : 'phase',
          key: t.phase,
          time: t.time,
          machine: f.name,
        });
    } else if (f.deletingSince !== undefined)
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
  interface Group {
    kind: Item['kind'];
    key: string;
    time: string;
    machines: string[];
  }
  const groups: Group[] = [];
  // The open group of each kind and key: items come in time order, so only the latest can take more.
  const open = new Map<string, Group>();
  for (const it of items) {
    const t = ms(it.time);
    if (t === Number.NEGATIVE_INFINITY) continue;
    const k = `${it.kind}\u0000${it.key}`;
    const g = open.get(k);
    // Anchored at the group's first time: a steady trickle does not make one endless group.
    if (g && t - ms(g.time) <= TIMELINE_GROUP_WINDOW_MS) g.machines.push(it.machine);
    else {
      const fresh: Group = { kind: it.kind, key: it.key, time: it.time, machines: [it.machine] };
      groups.push(fresh);
      open.set(k, fresh);
    }
  }
  return groups.map((g) => {
    const n = g.machines.length;
    const noun = n === 1 ? '1 machine' : `${String(n)} machines`;
    const shown = g.machines.slice(0, TIMELINE_GROUP_NAMES_MAX);
    const names = `${shown.join(', ')}${n > shown.length ? ` (+${String(n - shown.length)} more)` : ''}`;
    const text =
      g.kind === 'stuck'
        ? `${noun} stuck (${g.key}) since ${g.time}: ${names}`
        : `${noun} ${g.key}: ${names}`;
    return {
      id: `machines:${g.kind}:${g.key}:${g.time}`,
      time: g.time,
      source: 'machine' as const,
      kind: g.kind,
      severity:
        g.kind === 'stuck' || g.key === 'Failed' ? ('warning' as const) : ('normal' as const),
      machines: shown,
      count: n,
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
