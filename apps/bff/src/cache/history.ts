/**
 * Recent versions of the objects users edit, by resourceVersion, so that a conflict can be shown
 * and judged three-way: the version the user saw (base), the current one (theirs), and the user's
 * change (yours). Status and managed fields are left out: they never conflict with an edit and
 * they change far more often than anything else. Versions that differ only there share one copy.
 */

import { sameJson } from '../views/same-json';

export type Stripped = Record<string, unknown>;

/**
 * A run of consecutive versions with the same content (status, managed fields and the
 * resourceVersion left out), kept as JSON text: one compact string, parsed only when a conflict
 * asks. Status churn (a controller's every write) extends the run instead of pushing older
 * contents out, so the version a user saw minutes ago is still known however busy the object is.
 */
interface Run {
  json: string;
  /**
   * The source's relist count when this run began. A relist delivers only the latest version of
   * what changed while the watch was down, so two versions recorded in different epochs may have
   * others between them that the cache never saw; a run never spans two epochs.
   */
  epoch: number;
  first: string;
  last: string;
  /** The latest resourceVersions of the run, exactly (bounded: a busy object has thousands). */
  recent: string[];
  /** The object last recorded in the run (the one the cache holds): what the next is compared to. */
  latest: Record<string, unknown>;
}

/** How many of a run's resourceVersions are kept exactly, beside its first and last. */
const RECENT_PER_RUN = 16;

/**
 * A resourceVersion's place in the order of writes, when the server's are decimal integers, as
 * kube-apiserver's are (etcd revisions) and the embedded server's: then a version the watch
 * delivered between a run's first and last belongs to that run, even when it is not among the
 * few kept exactly. Versions of any other form are only ever matched exactly.
 */
function ordinal(rv: string): bigint | undefined {
  return /^[1-9][0-9]{0,30}$/.test(rv) ? BigInt(rv) : undefined;
}

function holds(run: Run, rv: string): boolean {
  if (run.first === rv || run.last === rv || run.recent.includes(rv)) return true;
  const n = ordinal(rv);
  const from = ordinal(run.first);
  const to = ordinal(run.last);
  return n !== undefined && from !== undefined && to !== undefined && from <= n && n <= to;
}

export function stripForHistory(obj: Record<string, unknown>): Stripped {
  const { status: _status, metadata, ...rest } = obj;
  const meta = { ...(metadata as Record<string, unknown> | undefined) };
  delete meta.managedFields;
  delete meta.resourceVersion;
  delete meta.generation;
  return { ...rest, metadata: meta };
}

/** The metadata fields stripForHistory leaves out. */
const UNRECORDED_META = new Set(['managedFields', 'resourceVersion', 'generation']);

const TOP_SKIP = new Set(['status', 'metadata']);

/**
 * Whether two versions of an object have one stripForHistory JSON, judged without serializing
 * either (issue 28: a status write, most of a watch's events, costs a walk instead of a string).
 */
function sameRecorded(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ma = a.metadata;
  const mb = b.metadata;
  if (typeof ma !== 'object' || ma === null || typeof mb !== 'object' || mb === null) return false;
  return sameJson(a, b, TOP_SKIP) && sameJson(ma, mb, UNRECORDED_META);
}

export class VersionHistory {
  readonly #perObject: number;
  readonly #byKey = new Map<string, Run[]>();

  /** `perObject`: how many distinct contents (runs) are remembered per object. */
  constructor(perObject = 8) {
    this.#perObject = perObject;
  }

  get size(): number {
    return this.#byKey.size;
  }

  record(key: string, rv: string | undefined, obj: Record<string, unknown>, epoch = 0): void {
    if (rv === undefined) return;
    const runs = this.#byKey.get(key) ?? [];
    const last = runs[runs.length - 1];
    if (last?.last === rv) return;
    const same = last?.epoch === epoch && sameRecorded(last.latest, obj);
    const json = same ? last.json : JSON.stringify(stripForHistory(obj));
    if (last?.json === json && last.epoch === epoch) {
      last.latest = obj;
      last.last = rv;
      last.recent.push(rv);
      if (last.recent.length > RECENT_PER_RUN) last.recent.shift();
      return;
    }
    // Equal contents across a relist keep one string, though not one run.
    runs.push({
      json: last?.json === json ? last.json : json,
      epoch,
      first: rv,
      last: rv,
      recent: [rv],
      latest: obj,
    });
    if (runs.length > this.#perObject) runs.shift();
    this.#byKey.set(key, runs);
  }

  forget(key: string): void {
    this.#byKey.delete(key);
  }

  #locate(key: string, rv: string): { runs: Run[]; from: number } {
    const runs = this.#byKey.get(key) ?? [];
    return { runs, from: runs.findIndex((r) => holds(r, rv)) };
  }

  /**
   * Every version from `rv` (the one a user saw) to the latest, oldest first, consecutive equal
   * contents once: what someone else wrote since, step by step. Comparing only the two ends misses
   * writes that cancel out (replicas 3 → 5 → 3), which are still someone's decision that an edit
   * planned on the first version would overwrite unseen. Undefined when `rv` is no longer
   * remembered, or when a relist lies between it and the latest (versions may be missing there).
   */
  since(key: string, rv: string): Stripped[] | undefined {
    const { runs, from } = this.#locate(key, rv);
    const start = runs[from];
    if (start === undefined) return undefined;
    const out: Stripped[] = [];
    let previous: string | undefined;
    for (const r of runs.slice(from)) {
      if (r.epoch !== start.epoch) return undefined;
      if (r.json !== previous) out.push(JSON.parse(r.json) as Stripped);
      previous = r.json;
    }
    return out;
  }

  /** Whether the cache has held the object at `rv` (it may have moved on since). */
  has(key: string, rv: string): boolean {
    return this.#locate(key, rv).from >= 0;
  }

  /** The object as it was at `rv` (without status), if still remembered. */
  at(key: string, rv: string): Stripped | undefined {
    const { runs, from } = this.#locate(key, rv);
    const json = runs[from]?.json;
    return json === undefined ? undefined : (JSON.parse(json) as Stripped);
  }
}
