import {
  AUDIT_DATA_KEY,
  auditConfigMapName,
  machinePhaseFact,
  mergeTimeline,
  nodeRefTimes,
  parseAuditRecords,
  timelineFacets,
  type AuditBounds,
  type AuditRecord,
  type MachinePhaseFact,
  type MachineView,
  type TimelineEntry,
  type TimelineFilter,
} from '@dcs/domain';
import type { Principal } from '../auth/principal';
import type { ObjectCache } from '../cache/object-cache';
import type { ClusterModel } from './cluster-model';
import { coreEvents, readAs, v1Events, worstState, type SourceState } from './events';
import { clusterObjects, poolObjects, type ObjectNames } from './object-names';

/**
 * The timeline of a pool or a cluster (issue 12), gathered here and merged by domain's
 * `mergeTimeline`: the console's records (the cluster's audit ConfigMap, and the namespace's
 * one for IP-pool edits of the cluster's pools), the Events of both APIs about the pool's or
 * cluster's objects, and its machines' phases from the cache. Records and Events are read with
 * the user's own credential, as Events always are here: what the API server lets them read is
 * what they see, and a source they may not read is named in `sources`, not silently empty.
 */

export interface TimelineView {
  entries: TimelineEntry[];
  facets: { users: string[]; operations: string[] };
  sources: { records: SourceState; events: SourceState; eventsV1: SourceState };
  /** How long records are kept and the size cap of one cluster's records, as configured here. */
  retention: { days: number; maxBytes: number };
}

const encode = encodeURIComponent;

const recordsOf = (principal: Principal, namespace: string, cluster: string) =>
  readAs<AuditRecord[]>(
    principal,
    `/api/v1/namespaces/${encode(namespace)}/configmaps/${encode(auditConfigMapName(cluster))}`,
    (body) =>
      parseAuditRecords(
        (body as { data?: Record<string, string> } | undefined)?.data?.[AUDIT_DATA_KEY],
      ),
    [],
  );

/**
 * The machines' phase histories, from their objects and the Machine controller's Events (when
 * it set each nodeRef): what the cluster keeps, so every replica tells the same (domain's
 * machineTransitions).
 */
function machineFacts(
  cache: ObjectCache,
  namespace: string,
  views: readonly MachineView[],
  nodeRefAt: ReadonlyMap<string, string>,
): MachinePhaseFact[] {
  return views.flatMap((v) => {
    const m = cache.stores.Machine.get(namespace, v.name);
    return m ? [machinePhaseFact(m, v.diagnosis, nodeRefAt.get(v.name))] : [];
  });
}

const targets = (wanted: ObjectNames) => (r: AuditRecord) =>
  r.target !== undefined && wanted.get(r.target.kind)?.has(r.target.name) === true;

async function gather(
  cache: ObjectCache,
  principal: Principal,
  model: ClusterModel,
  wanted: ObjectNames,
  machines: readonly MachineView[],
  keep: (r: AuditRecord) => boolean,
  filter: TimelineFilter,
  bounds: AuditBounds,
): Promise<TimelineView> {
  const { namespace, name: cluster } = model;
  const [own, shared, events, eventsV1] = await Promise.all([
    recordsOf(principal, namespace, cluster),
    recordsOf(principal, namespace, ''),
    coreEvents(principal, namespace, wanted),
    v1Events(principal, namespace, wanted),
  ]);
  const records = [...own.value.filter(keep), ...shared.value.filter(targets(wanted))];
  const input = {
    records,
    events: events.value,
    eventsV1: eventsV1.value,
    machines: machineFacts(cache, namespace, machines, nodeRefTimes(events.value, eventsV1.value)),
  };
  return {
    entries: mergeTimeline(input, filter),
    // The filters offer every user and operation of the unfiltered timeline.
    facets: timelineFacets(mergeTimeline(input)),
    sources: {
      records: worstState(own.state, shared.state),
      events: events.state,
      eventsV1: eventsV1.state,
    },
    retention: {
      days: Math.round(bounds.retentionMs / (24 * 3600 * 1000)),
      maxBytes: bounds.maxBytes,
    },
  };
}

/** One pool's timeline: records about the pool or its objects, its objects' Events, its machines. */
export function poolTimeline(
  cache: ObjectCache,
  principal: Principal,
  model: ClusterModel,
  pool: string,
  filter: TimelineFilter,
  bounds: AuditBounds,
): Promise<TimelineView> {
  const machines = model.machinesOf(pool);
  const wanted = poolObjects(cache, model.namespace, model.name, pool, machines);
  const ipPool = model.pool(pool)?.ipPool?.name;
  if (ipPool !== undefined) wanted.set('DCSIpHostnamePool', new Set([ipPool]));
  const about = targets(wanted);
  return gather(
    cache,
    principal,
    model,
    wanted,
    machines,
    (r) => r.pool === pool || about(r),
    filter,
    bounds,
  );
}

/** A cluster's timeline: every record of the cluster, its objects' Events, all its machines. */
export function clusterTimeline(
  cache: ObjectCache,
  principal: Principal,
  model: ClusterModel,
  filter: TimelineFilter,
  bounds: AuditBounds,
): Promise<TimelineView> {
  return gather(
    cache,
    principal,
    model,
    clusterObjects(cache, model),
    model.machines(),
    () => true,
    filter,
    bounds,
  );
}
