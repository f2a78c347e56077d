import {
  CONTROL_PLANE_POOL_ID,
  LABEL_CONTROL_PLANE,
  LABEL_DEPLOYMENT_NAME,
  LABEL_SET_NAME,
} from '../labels';
import type { Cluster, Machine, MachineDeployment, MachineSet } from '../schemas/capi';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import type { AnyObject } from '../schemas/meta';
import { compareStrings, parseTime } from './util';

/**
 * The object tree of a cluster as `clusterctl describe cluster` (Cluster API v1.14) shows it: the
 * Cluster, its infrastructure, the control plane and its machines, the workers' MachineDeployments
 * (and MachineSets with `showMachineSets`), their Machines with their infrastructure and bootstrap
 * objects; machines whose conditions agree grouped into one "N Machines..." line, conditions
 * listed under the objects `showConditions` names. The semantics are clusterctl's
 * (cmd/clusterctl/client/tree and internal/util/tree), rebuilt on the console's hub model: every
 * Cluster API object in one shape whatever version the cluster serves, v1beta2 status under
 * `status.v1beta2`.
 */

/** Which conditions the tree reads: v1beta2 (clusterctl's default since v1.11) or v1beta1. */
export type ObjectTreeConditions = 'v1beta2' | 'v1beta1';

export interface ObjectTreeOptions {
  /**
   * `--show-conditions`: comma-separated `all`, kinds (`KubeadmControlPlane`, `Machines`) or
   * `Kind/name`; the objects matched get every condition listed under their line.
   */
  showConditions?: string;
  /** `--show-machinesets`: MachineSets between a MachineDeployment and its Machines. */
  showMachineSets?: boolean;
  /**
   * `--echo`: show a machine's infrastructure and bootstrap objects even when their Ready
   * condition is True or says what the machine's already says.
   */
  echo?: boolean;
  /** `--grouping` (default true): sibling machines whose conditions agree share one line. */
  grouping?: boolean;
  /**
   * `--v1beta2` (default: v1beta2 when the Cluster carries v1beta2 conditions, as a cluster on
   * Cluster API v1.9 and later does; v1beta1 before).
   */
  conditions?: ObjectTreeConditions;
}

export interface TreeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  severity?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  /** Cluster API's in-progress types (Deleting, RollingOut, …): True is the unusual state. */
  negative?: boolean;
}

/** Where a line leads in the console: a pool's page or a machine's. */
export type TreeLink = { pool: string } | { machine: string };

export interface ObjectTreeNode {
  /** Unique in the tree: `Kind/name` of a real object, `virtual:…` / `group:…` otherwise. */
  id: string;
  kind: string;
  name: string;
  /** What the object is to the cluster: ClusterInfrastructure, ControlPlane, … */
  metaName?: string;
  /** No object behind it: Workers, Other. */
  virtual?: boolean;
  /** A group of sibling objects of `kind` (sorted names) whose conditions agree. */
  group?: { items: string[] };
  deleting?: boolean;
  /** v1beta2 counters as clusterctl prints them (`current/desired`, counts). */
  replicas?: string;
  available?: string;
  ready?: string;
  upToDate?: string;
  /** The condition the line shows: v1beta2 Available or Ready; v1beta1 Ready. */
  condition?: TreeCondition;
  /** Set when `showConditions` names the object: the conditions listed below its line. */
  conditions?: TreeCondition[];
  link?: TreeLink;
  children: ObjectTreeNode[];
}

export interface ObjectTree {
  conditions: ObjectTreeConditions;
  options: Required<ObjectTreeOptions>;
  root: ObjectTreeNode;
}

/** What the tree is built from: the cluster's objects from the cache (others are ignored). */
export interface ObjectTreeObjects {
  cluster: Cluster;
  /** The Cluster's `spec.infrastructureRef` object (DCSCluster), when it is known. */
  infrastructure?: AnyObject;
  controlPlane?: KubeadmControlPlane;
  machineDeployments: readonly MachineDeployment[];
  machineSets: readonly MachineSet[];
  machines: readonly Machine[];
  /** Machines' infrastructure objects (DCSMachine), looked up by kind and name. */
  machineInfrastructure: readonly AnyObject[];
  /** Machines' bootstrap objects (KubeadmConfig), looked up by kind and name. */
  bootstrapConfigs: readonly AnyObject[];
}

const NEGATIVE = new Set([
  'Paused',
  'Deleting',
  'RollingOut',
  'ScalingUp',
  'ScalingDown',
  'Updating',
  'Remediating',
]);

// --- reading conditions off the hub ---------------------------------------------------------

interface RawCondition {
  type?: unknown;
  status?: unknown;
  severity?: unknown;
  reason?: unknown;
  message?: unknown;
  lastTransitionTime?: unknown;
}

interface WithStatus {
  status?: unknown;
  metadata: AnyObject['metadata'];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;
const record = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;

function toCondition(c: RawCondition, fallbackReason?: string): TreeCondition | undefined {
  const type = str(c.type);
  const status = c.status;
  if (!type || (status !== 'True' && status !== 'False' && status !== 'Unknown')) return undefined;
  const reason = str(c.reason) ?? fallbackReason;
  return {
    type,
    status,
    ...(str(c.severity) ? { severity: str(c.severity) } : {}),
    ...(reason ? { reason } : {}),
    ...(str(c.message) ? { message: str(c.message) } : {}),
    ...(str(c.lastTransitionTime) ? { lastTransitionTime: str(c.lastTransitionTime) } : {}),
    ...(NEGATIVE.has(type) ? { negative: true } : {}),
  };
}

const rawList = (v: unknown): RawCondition[] =>
  Array.isArray(v) ? v.filter((c): c is RawCondition => record(c) !== undefined) : [];

/**
 * An object's v1beta2 conditions: the hub's `status.v1beta2.conditions`; for an object that has
 * only v1beta1 conditions (a provider on the v1beta1 contract, like DCS's), those, with the
 * reason `NoReasonReported` where they give none, as Cluster API reads such an object.
 */
function v1beta2Conditions(obj: WithStatus | undefined): TreeCondition[] {
  const status = record(obj?.status);
  const v1beta2 = record(status?.v1beta2);
  if (v1beta2 && Array.isArray(v1beta2.conditions))
    return rawList(v1beta2.conditions).flatMap((c) => toCondition(c) ?? []);
  return rawList(status?.conditions).flatMap((c) => toCondition(c, 'NoReasonReported') ?? []);
}

function v1beta1Conditions(obj: WithStatus | undefined): TreeCondition[] {
  return rawList(record(obj?.status)?.conditions).flatMap((c) => toCondition(c) ?? []);
}

// --- the tree being built (clusterctl's ObjectTree: items, ownership, grouping) ----------------

interface Item {
  node: ObjectTreeNode;
  /** Conditions compared when grouping and echoing. */
  ready?: TreeCondition;
  available?: TreeCondition;
  upToDate?: TreeCondition;
  /** Children of this node are grouped when their conditions agree. */
  grouping: boolean;
}

const sameStatusAndReason = (a?: TreeCondition, b?: TreeCondition) =>
  a === undefined || b === undefined ? a === b : a.status === b.status && a.reason === b.reason;

const sameStatusSeverityAndReason = (a?: TreeCondition, b?: TreeCondition) =>
  a === undefined || b === undefined
    ? a === b
    : a.status === b.status && (a.severity ?? '') === (b.severity ?? '') && a.reason === b.reason;

const earliest = (a?: string, b?: string) => {
  const ta = parseTime(a);
  const tb = parseTime(b);
  if (ta === undefined) return b;
  if (tb === undefined) return a;
  return ta <= tb ? a : b;
};

const plural = (kind: string) => (kind.endsWith('s') ? kind : `${kind}s`);

/** Whether `--show-conditions` names this object (clusterctl's isObjDebug, case-insensitive). */
export function showsConditionsOf(filter: string, kind: string, name: string): boolean {
  for (const raw of filter.toLowerCase().split(',')) {
    const f = raw.trim();
    if (f === '') continue;
    if (f === 'all') return true;
    const parts = f.split('/');
    const kindMatches = plural(parts[0] ?? '') === plural(kind.toLowerCase());
    if (parts.length === 2) {
      if (kindMatches && parts[1] === name.toLowerCase()) return true;
      continue;
    }
    if (kindMatches) return true;
  }
  return false;
}

/**
 * Normalizes options to clusterctl's defaults; the condition mode follows what the Cluster
 * carries when it is not given.
 */
export function objectTreeOptions(
  cluster: Cluster | undefined,
  options: ObjectTreeOptions = {},
): Required<ObjectTreeOptions> {
  const hasV1beta2 = Array.isArray(record(record(cluster?.status)?.v1beta2)?.conditions);
  return {
    showConditions: options.showConditions ?? '',
    showMachineSets: options.showMachineSets ?? false,
    echo: options.echo ?? false,
    grouping: options.grouping ?? true,
    conditions: options.conditions ?? (hasV1beta2 ? 'v1beta2' : 'v1beta1'),
  };
}

function isControlledBy(child: AnyObject, owner: AnyObject | undefined): boolean {
  if (!owner?.metadata.uid) return false;
  return (child.metadata.ownerReferences ?? []).some(
    (r) => r.controller === true && r.uid === owner.metadata.uid,
  );
}

const hasController = (o: AnyObject) =>
  (o.metadata.ownerReferences ?? []).some((r) => r.controller === true);

/**
 * Builds the tree of one cluster from its cached objects (clusterctl's Discovery). Ownership is
 * by controller ownerReference as upstream reads it; objects without one (written by a client
 * that set only labels) fall back to the Cluster API labels naming their MachineDeployment and
 * MachineSet.
 */
export function buildObjectTree(
  objects: ObjectTreeObjects,
  options: ObjectTreeOptions = {},
): ObjectTree {
  const opts = objectTreeOptions(objects.cluster, options);
  const v1beta2 = opts.conditions === 'v1beta2';
  const conditionsOf = (o: WithStatus | undefined) =>
    v1beta2 ? v1beta2Conditions(o) : v1beta1Conditions(o);
  const find = (o: WithStatus | undefined, type: string) =>
    conditionsOf(o).find((c) => c.type === type);

  const clusterName = objects.cluster.metadata.name ?? '';
  const children = new Map<string, Item[]>();
  let groupSeq = 0;

  const makeNode = (
    kind: string,
    name: string,
    extra: Partial<ObjectTreeNode> & { obj?: WithStatus & { kind?: string } },
  ): Item => {
    const { obj, ...rest } = extra;
    const node: ObjectTreeNode = { id: `${kind}/${name}`, kind, name, children: [], ...rest };
    if (obj?.metadata.deletionTimestamp) node.deleting = true;
    if (obj && showsConditionsOf(opts.showConditions, kind, name)) {
      node.conditions = v1beta2
        ? conditionsOf(obj)
        : conditionsOf(obj)
            .filter((c) => c.type !== 'Ready')
            .sort((a, b) => compareStrings(a.type, b.type));
    }
    const ready = find(obj, 'Ready');
    const available = v1beta2 ? find(obj, 'Available') : undefined;
    const upToDate = v1beta2 && kind === 'Machine' ? find(obj, 'UpToDate') : undefined;
    return {
      node,
      grouping: false,
      ...(ready ? { ready } : {}),
      ...(available ? { available } : {}),
      ...(upToDate ? { upToDate } : {}),
    };
  };

  const virtualNode = (kind: string, name: string): Item => {
    const node: ObjectTreeNode = { id: `virtual:${kind}`, kind, name, virtual: true, children: [] };
    if (showsConditionsOf(opts.showConditions, kind, name)) node.conditions = [];
    return { node, grouping: false };
  };

  /** clusterctl's ObjectTree.Add: returns whether the object got its own line. */
  const add = (parent: Item, item: Item, noEcho = false): boolean => {
    if (noEcho && !opts.echo) {
      const echoes = v1beta2
        ? item.ready?.status === 'True' || sameStatusAndReason(parent.ready, item.ready)
        : item.ready?.status === 'True' || sameStatusSeverityAndReason(parent.ready, item.ready);
      if (echoes) return false;
    }
    const siblings = children.get(parent.node.id) ?? [];
    if (parent.grouping) {
      const agrees = (s: Item) =>
        v1beta2
          ? sameStatusAndReason(item.available, s.available) &&
            sameStatusAndReason(item.ready, s.ready) &&
            sameStatusAndReason(item.upToDate, s.upToDate)
          : sameStatusSeverityAndReason(item.ready, s.ready);
      const ordered = [...siblings].sort((a, b) => compareStrings(a.node.kind, b.node.kind));
      for (const s of ordered) {
        if (!agrees(s)) continue;
        if (s.node.group) {
          if (s.node.kind !== item.node.kind) continue;
          s.node.group.items = [...s.node.group.items, item.node.name].sort(compareStrings);
          if (s.ready && item.ready) {
            s.ready = {
              ...s.ready,
              ...optionalTime(earliest(s.ready.lastTransitionTime, item.ready.lastTransitionTime)),
            };
            s.node.condition = s.ready;
          }
          countInto(s);
          return false;
        }
        if (s.node.kind !== item.node.kind) continue;
        const group = groupOf(s, item);
        const at = siblings.indexOf(s);
        siblings.splice(at, 1, group);
        removeSubtree(s);
        return false;
      }
    }
    if (item.grouping && !opts.grouping) item.grouping = false;
    siblings.push(item);
    children.set(parent.node.id, siblings);
    return true;
  };

  const removeSubtree = (item: Item) => {
    for (const c of children.get(item.node.id) ?? []) removeSubtree(c);
    children.delete(item.node.id);
  };

  const countInto = (g: Item) => {
    const n = String(g.node.group?.items.length ?? 0);
    if (!v1beta2) return;
    g.node.available = g.available?.status === 'True' ? n : '0';
    g.node.ready = g.ready?.status === 'True' ? n : '0';
    g.node.upToDate = g.upToDate?.status === 'True' ? n : '0';
  };

  const groupOf = (sibling: Item, item: Item): Item => {
    groupSeq += 1;
    const strip = (c?: TreeCondition, time?: string): TreeCondition | undefined => {
      if (!c) return undefined;
      const { message: _m, lastTransitionTime: _t, ...rest } = c;
      return { ...rest, ...optionalTime(time) };
    };
    const ready = strip(
      item.ready,
      earliest(item.ready?.lastTransitionTime, sibling.ready?.lastTransitionTime),
    );
    const node: ObjectTreeNode = {
      id: `group:${item.node.kind}:${groupSeq}`,
      kind: item.node.kind,
      name: '',
      virtual: true,
      group: { items: [item.node.name, sibling.node.name].sort(compareStrings) },
      ...(ready ? { condition: ready } : {}),
      children: [],
    };
    const g: Item = {
      node,
      grouping: false,
      ...(ready ? { ready } : {}),
      ...(strip(item.available) ? { available: strip(item.available) } : {}),
      ...(strip(item.upToDate) ? { upToDate: strip(item.upToDate) } : {}),
    };
    countInto(g);
    return g;
  };

  // --- the objects, as Discovery adds them ---------------------------------------------------

  const { cluster, controlPlane } = objects;
  const root = makeNode('Cluster', clusterName, { obj: cluster });
  Object.assign(root.node, clusterCounters(cluster, v1beta2));
  const clusterAvailable = v1beta2 ? root.available : root.ready;
  if (clusterAvailable) root.node.condition = clusterAvailable;

  if (objects.infrastructure) {
    const infra = objects.infrastructure;
    const item = makeNode(infra.kind, infra.metadata.name ?? '', {
      obj: infra,
      metaName: 'ClusterInfrastructure',
    });
    if (item.ready) item.node.condition = item.ready;
    add(root, item);
  }

  let cpItem: Item | undefined;
  if (controlPlane) {
    cpItem = makeNode('KubeadmControlPlane', controlPlane.metadata.name ?? '', {
      obj: controlPlane,
      metaName: 'ControlPlane',
      link: { pool: CONTROL_PLANE_POOL_ID },
    });
    cpItem.grouping = true;
    Object.assign(cpItem.node, controlPlaneCounters(controlPlane, v1beta2));
    const shown = v1beta2 ? (cpItem.available ?? cpItem.ready) : cpItem.ready;
    if (shown) cpItem.node.condition = shown;
    add(root, cpItem);
  }

  const byName = <T extends AnyObject>(list: readonly T[]) =>
    [...list].sort((a, b) => compareStrings(a.metadata.name ?? '', b.metadata.name ?? ''));
  const infraByKey = new Map(
    objects.machineInfrastructure.map((o) => [`${o.kind}/${o.metadata.name ?? ''}`, o]),
  );
  const bootstrapByKey = new Map(
    objects.bootstrapConfigs.map((o) => [`${o.kind}/${o.metadata.name ?? ''}`, o]),
  );

  const placed = new Set<string>();
  const addMachine = (parent: Item, m: Machine) => {
    const name = m.metadata.name ?? '';
    placed.add(name);
    const item = makeNode('Machine', name, { obj: m, link: { machine: name } });
    if (v1beta2) {
      const one = (cond?: TreeCondition) => (cond?.status === 'True' ? '1' : '0');
      Object.assign(item.node, {
        replicas: '1',
        available: one(item.available),
        ready: one(item.ready),
        upToDate: one(item.upToDate),
      });
    }
    if (item.ready) item.node.condition = item.ready;
    if (!add(parent, item)) return;
    const refs: [AnyObject | undefined, string][] = [
      [lookup(infraByKey, m.spec?.infrastructureRef), 'MachineInfrastructure'],
      [lookup(bootstrapByKey, m.spec?.bootstrap.configRef), 'BootstrapConfig'],
    ];
    for (const [obj, metaName] of refs) {
      if (!obj) continue;
      const child = makeNode(obj.kind, obj.metadata.name ?? '', { obj, metaName });
      if (child.ready) child.node.condition = child.ready;
      add(item, child, true);
    }
  };

  const machines = byName(objects.machines);
  const cpMachines = machines.filter((m) => LABEL_CONTROL_PLANE in (m.metadata.labels ?? {}));
  if (cpItem) for (const m of cpMachines) addMachine(cpItem, m);

  const workers = virtualNode('WorkerGroup', 'Workers');
  if (machines.length !== cpMachines.length) {
    add(root, workers);
    const sets = byName(objects.machineSets);
    for (const md of byName(objects.machineDeployments)) {
      const mdName = md.metadata.name ?? '';
      const mdItem = makeNode('MachineDeployment', mdName, { obj: md, link: { pool: mdName } });
      mdItem.grouping = !opts.showMachineSets;
      Object.assign(mdItem.node, replicaCounters(md, v1beta2));
      const shown = v1beta2 ? mdItem.available : mdItem.ready;
      if (shown) mdItem.node.condition = shown;
      add(workers, mdItem);
      const owned = sets.filter((ms) =>
        hasController(ms)
          ? isControlledBy(ms, md)
          : ms.metadata.labels?.[LABEL_DEPLOYMENT_NAME] === mdName,
      );
      for (const ms of owned) {
        const msName = ms.metadata.name ?? '';
        let parent = mdItem;
        if (opts.showMachineSets) {
          const msItem = makeNode('MachineSet', msName, { obj: ms, link: { pool: mdName } });
          msItem.grouping = true;
          Object.assign(msItem.node, replicaCounters(ms, v1beta2));
          if (!v1beta2 && msItem.ready) msItem.node.condition = msItem.ready;
          add(mdItem, msItem);
          parent = msItem;
        }
        for (const m of machines) {
          const mine = hasController(m)
            ? isControlledBy(m, ms)
            : m.metadata.labels?.[LABEL_SET_NAME] === msName;
          if (mine && !placed.has(m.metadata.name ?? '')) addMachine(parent, m);
        }
      }
    }
  }

  const orphans = machines.filter((m) => !placed.has(m.metadata.name ?? ''));
  if (orphans.length > 0) {
    if (!children.get(root.node.id)?.includes(workers)) add(root, workers);
    const other = virtualNode('OtherGroup', 'Other');
    add(workers, other);
    for (const m of orphans) addMachine(other, m);
  }

  // Materialize: children in clusterctl's order (z-order is equal for every kind shown here,
  // so by the line's name), groups' "See …" and counters already set.
  const materialize = (item: Item): ObjectTreeNode => {
    item.node.children = (children.get(item.node.id) ?? [])
      .map(materialize)
      .sort((a, b) => compareStrings(treeRowName(a), treeRowName(b)));
    return item.node;
  };
  return { conditions: opts.conditions, options: opts, root: materialize(root) };
}

const optionalTime = (t: string | undefined) => (t ? { lastTransitionTime: t } : {});

function lookup(
  map: Map<string, AnyObject>,
  ref: { kind?: string | undefined; name?: string | undefined } | undefined,
): AnyObject | undefined {
  if (!ref?.kind || !ref.name) return undefined;
  return map.get(`${ref.kind}/${ref.name}`);
}

type Counters = Pick<ObjectTreeNode, 'replicas' | 'available' | 'ready' | 'upToDate'>;

function countersFrom(v1beta2: Record<string, unknown> | undefined): Counters {
  const out: Counters = {};
  const a = num(v1beta2?.availableReplicas);
  const r = num(v1beta2?.readyReplicas);
  const u = num(v1beta2?.upToDateReplicas);
  if (a !== undefined) out.available = String(a);
  if (r !== undefined) out.ready = String(r);
  if (u !== undefined) out.upToDate = String(u);
  return out;
}

/** MachineDeployment and MachineSet: `status.replicas/spec.replicas` and the v1beta2 counters. */
function replicaCounters(o: MachineDeployment | MachineSet, v1beta2: boolean): Counters {
  if (!v1beta2) return {};
  const out = countersFrom(record(o.status?.v1beta2));
  if (o.spec?.replicas !== undefined)
    out.replicas = `${o.status?.replicas ?? 0}/${o.spec.replicas}`;
  return out;
}

function controlPlaneCounters(kcp: KubeadmControlPlane, v1beta2: boolean): Counters {
  if (!v1beta2) return {};
  const out = countersFrom(record(kcp.status?.v1beta2));
  const current = kcp.status?.replicas;
  const desired = kcp.spec?.replicas;
  if (current !== undefined && desired !== undefined) out.replicas = `${current}/${desired}`;
  return out;
}

/** The Cluster: control plane and workers summed, from v1beta2's `controlPlane` / `workers`. */
function clusterCounters(cluster: Cluster, v1beta2: boolean): Counters {
  if (!v1beta2) return {};
  const block = record(cluster.status?.v1beta2);
  const cp = record(block?.controlPlane) ?? {};
  const w = record(block?.workers) ?? {};
  const sum = (key: string) => {
    const a = num(cp[key]);
    const b = num(w[key]);
    return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
  };
  const out: Counters = {};
  const replicas = sum('replicas');
  const desired = sum('desiredReplicas');
  if (replicas !== undefined || desired !== undefined)
    out.replicas = `${replicas ?? 0}/${desired ?? 0}`;
  for (const [key, field] of [
    ['availableReplicas', 'available'],
    ['readyReplicas', 'ready'],
    ['upToDateReplicas', 'upToDate'],
  ] as const) {
    const v = sum(key);
    if (v !== undefined) out[field] = String(v);
  }
  return out;
}

// --- rendering, in clusterctl's layout -------------------------------------------------------

/**
 * The name a line shows (clusterctl's getRowName): `3 Machines...` for a group, the name of a
 * virtual object, `Kind/name` prefixed by what the object is (`ControlPlane - …`) and by
 * `!! DELETED !!` while it is being deleted.
 */
export function treeRowName(node: ObjectTreeNode): string {
  if (node.group) return `${node.group.items.length} ${plural(node.kind)}...`;
  if (node.virtual) return node.metaName ?? node.name;
  let name = `${node.kind}/${node.name}`;
  if (node.metaName) name = `${node.metaName} - ${name}`;
  if (node.deleting) name = `!! DELETED !! ${name}`;
  return name;
}

/** Kubernetes' duration.HumanDuration, as clusterctl's SINCE column prints it. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${hours / 24}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** clusterctl's formatParagraph: words wrapped at `width`, line breaks and bullet indents kept. */
export function formatParagraph(text: string, width = 100): string {
  const lines: string[] = [];
  for (const l of text.split('\n')) {
    let tmp = /^ */.exec(l)?.[0] ?? '';
    const indent = tmp + (l.trim().startsWith('* ') ? '  ' : '');
    for (const w of l.split(/\s+/)) {
      if (tmp.length + w.length < width) {
        if (tmp.trim() !== '') tmp += ' ';
        tmp += w;
        continue;
      }
      lines.push(tmp);
      tmp = indent + w;
    }
    lines.push(tmp);
  }
  return lines.join('\n');
}

/** One line of the printed tree. */
export interface ObjectTreeRow {
  /** `object`: an object's own line; `condition`: one of its conditions; `more`: a message's next line. */
  type: 'object' | 'condition' | 'more';
  /** The tree glyphs before the name (├─ └─ │). */
  prefix: string;
  /** The object's line name, or the condition's type; empty on a `more` line. */
  name: string;
  /** The columns after NAME, as printed. */
  cells: string[];
  /** The object the line belongs to (its id), for links and tones. */
  node: string;
  /** The condition the line's status shows, for its colour (clusterctl's). */
  tone?: 'ok' | 'error' | 'warning' | 'unknown' | 'info';
}

export interface RenderedObjectTree {
  header: string[];
  rows: ObjectTreeRow[];
  /** The whole table as clusterctl prints it without colours. */
  text: string;
}

const FIRST = '├─';
const LAST = '└─';
const PIPE = '│ ';
const INDENT = '  ';
const FILLER = ' '.repeat(10);

function childPrefix(current: string, index: number, count: number): string {
  const next = current.replaceAll(FIRST, PIPE).replaceAll(LAST, INDENT);
  return next + (index < count - 1 ? FIRST : LAST);
}

function multilineConditionPrefix(current: string): string {
  if (current.endsWith(FIRST)) return current.slice(0, -FIRST.length) + PIPE;
  if (current.endsWith(LAST)) return current.slice(0, -LAST.length);
  return '?';
}

function toneOf(c: TreeCondition | undefined, v1beta2: boolean): ObjectTreeRow['tone'] {
  if (!c) return undefined;
  if (c.status === 'Unknown') return v1beta2 ? 'unknown' : severityTone(c);
  if (v1beta2) {
    const good = c.negative ? c.status === 'False' : c.status === 'True';
    return good ? 'ok' : 'error';
  }
  if (c.status === 'True') return 'ok';
  return severityTone(c);
}

const severityTone = (c: TreeCondition): ObjectTreeRow['tone'] =>
  c.severity === 'Error' ? 'error' : c.severity === 'Warning' ? 'warning' : 'info';

/**
 * Renders a tree as `clusterctl describe cluster` prints it: v1beta2's NAME, REPLICAS, AVAILABLE,
 * READY, UP TO DATE, STATUS, REASON, SINCE, MESSAGE (messages wrapped at 100 characters onto
 * continued lines) or v1beta1's NAME, READY, SEVERITY, REASON, SINCE, MESSAGE (messages cut at
 * 100); columns left-aligned, two spaces apart, trailing spaces trimmed.
 */
export function renderObjectTree(tree: ObjectTree, now: Date): RenderedObjectTree {
  const v1beta2 = tree.conditions === 'v1beta2';
  const since = (c: TreeCondition | undefined) => {
    const t = parseTime(c?.lastTransitionTime);
    return t === undefined ? '' : humanDuration(now.getTime() - t);
  };
  const header = v1beta2
    ? [
        'NAME',
        'REPLICAS',
        'AVAILABLE',
        'READY',
        'UP TO DATE',
        'STATUS',
        'REASON',
        'SINCE',
        'MESSAGE',
      ]
    : ['NAME', 'READY', 'SEVERITY', 'REASON', 'SINCE', 'MESSAGE'];
  const rows: ObjectTreeRow[] = [];
  const blank = (n: number) => Array.from({ length: n }, () => '');

  const groupMessage = (node: ObjectTreeNode) => {
    const items = node.group?.items ?? [];
    return items.length <= 2
      ? `See ${items.join(', ')}`
      : `See ${items.slice(0, 2).join(', ')}, ...`;
  };

  const v1beta1Cells = (c: TreeCondition | undefined, message: string | undefined) => {
    let m = message ?? c?.message ?? '';
    if (message === undefined && m.length > 100) m = `${m.slice(0, 100)} ...`;
    return [c?.status ?? '', c?.severity ?? '', c?.reason ?? '', since(c), m];
  };

  // The prefix of a message's continued lines (clusterctl's getRootMultiLineObjectPrefix):
  // the ancestors' pipes, and one more when the object has children below.
  const visit = (node: ObjectTreeNode, prefix: string, continuation: string) => {
    const name = treeRowName(node);
    const showing = node.conditions !== undefined;
    const c = node.condition;
    if (v1beta2) {
      let message = node.group ? groupMessage(node) : formatParagraph(c?.message ?? '');
      let status = c ? `${c.type}: ${c.status}` : '';
      let reason = c?.reason ?? '';
      let age = since(c);
      if (showing) [status, reason, age, message] = ['', '', '', ''];
      const [first = '', ...more] = message.split('\n');
      rows.push({
        type: 'object',
        prefix,
        name,
        cells: [
          node.replicas ?? '',
          node.available ?? '',
          node.ready ?? '',
          node.upToDate ?? '',
          status,
          reason,
          age,
          first,
        ],
        node: node.id,
        ...(showing ? {} : optionalTone(toneOf(c, true))),
      });
      const own = continuation + (node.children.length > 0 ? PIPE : '');
      for (const m of more)
        rows.push({ type: 'more', prefix: own, name: '', cells: [...blank(7), m], node: node.id });
    } else {
      rows.push({
        type: 'object',
        prefix,
        name,
        cells: v1beta1Cells(c, node.group ? groupMessage(node) : undefined),
        node: node.id,
        ...optionalTone(toneOf(c, false)),
      });
    }

    if (showing) {
      const list = node.conditions ?? [];
      const base = prefix + (node.children.length > 0 ? PIPE : INDENT) + FILLER;
      list.forEach((cond, i) => {
        const p = childPrefix(base, i, list.length);
        if (v1beta2) {
          const [first = '', ...more] = formatParagraph(cond.message ?? '').split('\n');
          rows.push({
            type: 'condition',
            prefix: p,
            name: cond.type,
            cells: ['', '', '', '', cond.status, cond.reason ?? '', since(cond), first],
            node: node.id,
            ...optionalTone(toneOf(cond, true)),
          });
          for (const m of more)
            rows.push({
              type: 'more',
              prefix: multilineConditionPrefix(p),
              name: '',
              cells: [...blank(7), m],
              node: node.id,
            });
        } else {
          rows.push({
            type: 'condition',
            prefix: p,
            name: cond.type,
            cells: v1beta1Cells(cond, undefined),
            node: node.id,
            ...optionalTone(toneOf(cond, false)),
          });
        }
      });
    }

    node.children.forEach((child, i) => {
      const last = i === node.children.length - 1;
      visit(
        child,
        childPrefix(prefix, i, node.children.length),
        continuation + (last ? INDENT : PIPE),
      );
    });
  };
  visit(tree.root, '', '');
  return { header, rows, text: layoutRows(header, rows) };
}

const optionalTone = (tone: ObjectTreeRow['tone']) => (tone ? { tone } : {});

/** Columns padded to their widest cell, two spaces apart; a cell's own line breaks get lines. */
function layoutRows(header: string[], rows: readonly ObjectTreeRow[]): string {
  const table = [header, ...rows.map((r) => [r.prefix + r.name, ...r.cells])];
  const split = table.map((cells) => cells.map((c) => c.split('\n')));
  const widths = header.map((_, i) =>
    Math.max(...split.map((cells) => Math.max(...(cells[i] ?? ['']).map((l) => l.length)))),
  );
  const out: string[] = [];
  for (const cells of split) {
    const height = Math.max(...cells.map((c) => c.length));
    for (let line = 0; line < height; line++) {
      const text = cells
        .map((c, i) => (c[line] ?? '').padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd();
      out.push(text);
    }
  }
  return `${out.join('\n')}\n`;
}
