import { z } from 'zod';
import { CONTROL_PLANE_POOL_ID } from '../labels';
import type { Plan } from '../planners/plan';

/**
 * The console's audit record (issue 12, "Audit timeline"): one line per console operation, who
 * did what to which objects, dry-run or applied, and how it ended. The BFF writes records into
 * a bounded ConfigMap per cluster on the management cluster (and an events.k8s.io/v1 Event per
 * record), so every replica reads the same history and it survives restarts. What a record
 * holds, how it is named and how the history is bounded are decided here, once.
 */

/** `reportingController` of the console's Events (events.k8s.io/v1) and `source` of its records. */
export const AUDIT_REPORTING_CONTROLLER = 'dcs.io/node-pool-console';
/** Label on the audit ConfigMaps, so `kubectl get cm -l dcs.io/console-audit` finds them. */
export const AUDIT_LABEL = 'dcs.io/console-audit';
/** Annotation on the console's Events naming the record they announce (the timeline shows one). */
export const AUDIT_RECORD_ANNOTATION = 'dcs.io/audit-record';
/** The ConfigMap key holding the records, one JSON object per line, oldest first. */
export const AUDIT_DATA_KEY = 'records.jsonl';
/** Default retention: records older than this are dropped at the next write. */
export const AUDIT_RETENTION_DAYS_DEFAULT = 30;
/**
 * Default size cap of the records in one ConfigMap. Kubernetes refuses objects over 1 MiB
 * (etcd's request limit); half of that leaves room for metadata and a last write that grows it.
 */
export const AUDIT_MAX_BYTES_DEFAULT = 512 * 1024;
/** At most this many field changes per record; the rest is counted in `diffTruncated`. */
export const AUDIT_MAX_DIFF = 20;
/** A changed value is kept as JSON text of at most this many characters. */
export const AUDIT_MAX_VALUE_CHARS = 120;

/**
 * The ConfigMap of a cluster's records, in the cluster's namespace. Namespace-level operations
 * (standalone IP-pool routes, cluster '') share `dcs-console-audit`. Cluster names are DNS-1123
 * labels, so the dotted name is a valid ConfigMap name.
 */
export function auditConfigMapName(cluster: string): string {
  return cluster === '' ? 'dcs-console-audit' : `dcs-console-audit.${cluster}`;
}

export const AuditDiffSchema = z.object({
  /** `Kind/name` */
  object: z.string(),
  /** JSON Pointer of the field. */
  path: z.string(),
  change: z.enum(['add', 'remove', 'replace', 'create', 'delete']),
  before: z.string().optional(),
  after: z.string().optional(),
});
export type AuditDiff = z.infer<typeof AuditDiffSchema>;

export const AuditRecordSchema = z.object({
  id: z.string(),
  /** RFC 3339, when the operation ended. */
  time: z.string(),
  user: z.string(),
  /** The route's action, e.g. `nodepool.scale`. */
  action: z.string(),
  /** The operation id of DOMAIN.md §3 (`O-SCALE-UP`), or the action when no plan was made. */
  operation: z.string(),
  namespace: z.string(),
  cluster: z.string(),
  /** `control-plane` or the worker pool's name, when the operation is about one pool. */
  pool: z.string().optional(),
  target: z.object({ kind: z.string(), name: z.string() }).optional(),
  /** `verb Kind/name` of each step of the plan. */
  objects: z.array(z.string()),
  diff: z.array(AuditDiffSchema),
  /** How many field changes were left out of `diff` (AUDIT_MAX_DIFF). */
  diffTruncated: z.number().int().optional(),
  replicas: z.object({ from: z.number(), to: z.number() }).optional(),
  dryRun: z.boolean(),
  /** applied, dry-run, dry-run-refused, conflict, failed, refused (by the server before any change), or the refusal's code (Invalid, Forbidden…). */
  result: z.string(),
  /** The HTTP status the user got, when it was not a success. */
  status: z.number().int().optional(),
  /** A failed execution whose completed steps were undone (false when none had run). */
  rolledBack: z.boolean().optional(),
  /** `Kind/name rv→rv`: objects someone else changed, which the request was rebased over. */
  rebased: z.array(z.string()).optional(),
  /** The error's message, for a refusal or failure. */
  message: z.string().optional(),
});
export type AuditRecord = z.infer<typeof AuditRecordSchema>;

/** Results that are no success: the timeline shows them as warnings. */
export function isAuditFailure(result: string): boolean {
  return !['applied', 'dry-run'].includes(result);
}

const compact = (value: unknown): string | undefined => {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > AUDIT_MAX_VALUE_CHARS
    ? `${text.slice(0, AUDIT_MAX_VALUE_CHARS - 1)}…`
    : text;
};

/** The pool an operation is about: its MachineDeployment's name, or `control-plane`. */
export function poolOfPlan(plan: Pick<Plan, 'target'>): string | undefined {
  if (plan.target.kind === 'MachineDeployment') return plan.target.name;
  if (plan.target.kind === 'KubeadmControlPlane') return CONTROL_PLANE_POOL_ID;
  return undefined;
}

export interface AuditInput {
  id: string;
  time: string;
  user: string;
  action: string;
  namespace: string;
  cluster: string;
  dryRun: boolean;
  result: string;
  plan?: Plan;
  status?: number;
  rolledBack?: boolean;
  rebased?: readonly { kind: string; name: string; from: string; to: string }[];
  message?: string;
}

/**
 * One record from what the mutation service knows at the end of a request: the plan's objects
 * and a compact diff (changed fields, values cut to AUDIT_MAX_VALUE_CHARS, at most
 * AUDIT_MAX_DIFF of them). A created or deleted object is one line, not its every field.
 */
export function auditRecordOf(input: AuditInput): AuditRecord {
  const { plan } = input;
  const diff: AuditDiff[] = [];
  let total = 0;
  for (const d of plan?.diffs ?? []) {
    const object = `${d.kind}/${d.name}`;
    const lines: AuditDiff[] =
      d.change === 'update'
        ? d.changes.map((c) => ({
            object,
            path: c.path,
            change: c.change,
            ...optionalText('before', compact(c.before)),
            ...optionalText('after', compact(c.after)),
          }))
        : [{ object, path: '', change: d.change }];
    total += lines.length;
    for (const l of lines) if (diff.length < AUDIT_MAX_DIFF) diff.push(l);
  }
  const pool = plan ? poolOfPlan(plan) : undefined;
  const replicas = plan?.effects.replicas;
  return {
    id: input.id,
    time: input.time,
    user: input.user,
    action: input.action,
    operation: plan?.operation ?? input.action,
    namespace: input.namespace,
    cluster: input.cluster,
    ...(pool !== undefined ? { pool } : {}),
    ...(plan ? { target: { kind: plan.target.kind, name: plan.target.name } } : {}),
    objects: plan?.steps.map((s) => `${s.verb} ${s.kind}/${s.name}`) ?? [],
    diff,
    ...(total > diff.length ? { diffTruncated: total - diff.length } : {}),
    ...(replicas ? { replicas: { from: replicas.from, to: replicas.to } } : {}),
    dryRun: input.dryRun,
    result: input.result,
    ...(input.status !== undefined ? { status: input.status } : {}),
    ...(input.rolledBack !== undefined ? { rolledBack: input.rolledBack } : {}),
    ...(input.rebased?.length
      ? { rebased: input.rebased.map((r) => `${r.kind}/${r.name} ${r.from}→${r.to}`) }
      : {}),
    ...(input.message !== undefined ? { message: compactMessage(input.message) } : {}),
  };
}

function optionalText<K extends string>(key: K, v: string | undefined): Partial<Record<K, string>> {
  return v === undefined ? {} : ({ [key]: v } as Record<K, string>);
}

const compactMessage = (m: string) => (m.length > 500 ? `${m.slice(0, 499)}…` : m);

/** One JSON object per line, oldest first: readable with `kubectl get cm … -o jsonpath`. */
export function serializeAuditRecords(records: readonly AuditRecord[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : '');
}

/**
 * The records of a ConfigMap's data. A line that is not a record (edited by hand, written by a
 * newer console) is skipped, not fatal: the rest of the history stays readable.
 */
export function parseAuditRecords(text: string | undefined): AuditRecord[] {
  const out: AuditRecord[] = [];
  for (const line of (text ?? '').split('\n')) {
    if (line.trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = AuditRecordSchema.safeParse(raw);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

export interface AuditBounds {
  /** Records older than now − retentionMs are dropped. */
  retentionMs: number;
  /** The serialized records stay at or under this many bytes (UTF-8); the oldest go first. */
  maxBytes: number;
}

export const DEFAULT_AUDIT_BOUNDS: AuditBounds = {
  retentionMs: AUDIT_RETENTION_DAYS_DEFAULT * 24 * 3600 * 1000,
  maxBytes: AUDIT_MAX_BYTES_DEFAULT,
};

const utf8Bytes = (s: string): number => {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
};

/**
 * Appends `added` to a history and applies the bounds: ordered by time (then id, so two replicas
 * agree), a record already present (same id: a retried write) kept once, records past the
 * retention dropped, then the oldest dropped until the size cap holds. A single record larger
 * than the cap cannot be kept; it is dropped too, and counted.
 */
export function appendAuditRecords(
  history: readonly AuditRecord[],
  added: readonly AuditRecord[],
  nowMs: number,
  bounds: AuditBounds = DEFAULT_AUDIT_BOUNDS,
): { records: AuditRecord[]; dropped: number } {
  const byId = new Map<string, AuditRecord>();
  for (const r of [...history, ...added]) if (!byId.has(r.id)) byId.set(r.id, r);
  const all = [...byId.values()].sort((a, b) => compareRecords(a, b));
  const cutoff = nowMs - bounds.retentionMs;
  const fresh = all.filter((r) => {
    const t = Date.parse(r.time);
    return Number.isNaN(t) || t >= cutoff;
  });
  const sizes = fresh.map((r) => utf8Bytes(JSON.stringify(r)) + 1);
  let total = sizes.reduce((a, b) => a + b, 0);
  let first = 0;
  while (total > bounds.maxBytes && first < fresh.length) {
    total -= sizes[first] ?? 0;
    first++;
  }
  const records = fresh.slice(first);
  return { records, dropped: all.length - records.length };
}

function compareRecords(a: AuditRecord, b: AuditRecord): number {
  const ta = Date.parse(a.time);
  const tb = Date.parse(b.time);
  if (ta !== tb) return (Number.isNaN(ta) ? 0 : ta) - (Number.isNaN(tb) ? 0 : tb);
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The English one-liner of a record: for logs, the Event's note and the diagnostics bundle. */
export function auditSummary(r: AuditRecord): string {
  const what = r.target ? `${r.target.kind} ${r.target.name}` : r.cluster || r.namespace;
  const replicas = r.replicas ? ` ${String(r.replicas.from)} → ${String(r.replicas.to)}` : '';
  const how = r.dryRun ? `previewed (${r.result})` : r.result;
  const rolledBack = r.rolledBack ? ', rolled back' : '';
  return `${r.user} ${r.operation} ${what}${replicas}: ${how}${rolledBack}`;
}
