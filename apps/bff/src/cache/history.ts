/**
 * Recent versions of the objects users edit, by resourceVersion, so that a conflict can be shown
 * and judged three-way: the version the user saw (base), the current one (theirs), and the user's
 * change (yours). Status and managed fields are left out: they never conflict with an edit and
 * they change far more often than anything else. Versions that differ only there share one copy.
 */

export type Stripped = Record<string, unknown>;

/** Kept as JSON text: one compact string per version, parsed only when a conflict asks. */
interface Entry {
  rv: string;
  json: string;
  /**
   * The source's relist count when this version arrived. A relist delivers only the latest
   * version of what changed while the watch was down, so two versions recorded in different
   * epochs may have others between them that the cache never saw.
   */
  epoch: number;
}

export function stripForHistory(obj: Record<string, unknown>): Stripped {
  const { status: _status, metadata, ...rest } = obj;
  const meta = { ...(metadata as Record<string, unknown> | undefined) };
  delete meta.managedFields;
  delete meta.resourceVersion;
  delete meta.generation;
  return { ...rest, metadata: meta };
}

export class VersionHistory {
  readonly #perObject: number;
  readonly #byKey = new Map<string, Entry[]>();

  constructor(perObject = 8) {
    this.#perObject = perObject;
  }

  get size(): number {
    return this.#byKey.size;
  }

  record(key: string, rv: string | undefined, obj: Record<string, unknown>, epoch = 0): void {
    if (rv === undefined) return;
    const list = this.#byKey.get(key) ?? [];
    const last = list[list.length - 1];
    if (last?.rv === rv) return;
    const json = JSON.stringify(stripForHistory(obj));
    // Consecutive versions with the same content share the string; only the rv is new.
    list.push({ rv, json: last?.json === json ? last.json : json, epoch });
    if (list.length > this.#perObject) list.shift();
    this.#byKey.set(key, list);
  }

  forget(key: string): void {
    this.#byKey.delete(key);
  }

  /**
   * Every version from `rv` (the one a user saw) to the latest, oldest first, consecutive equal
   * contents once: what someone else wrote since, step by step. Comparing only the two ends misses
   * writes that cancel out (replicas 3 → 5 → 3), which are still someone's decision that an edit
   * planned on the first version would overwrite unseen. Undefined when `rv` is no longer
   * remembered, or when a relist lies between it and the latest (versions may be missing there).
   */
  since(key: string, rv: string): Stripped[] | undefined {
    const list = this.#byKey.get(key) ?? [];
    const from = list.findIndex((e) => e.rv === rv);
    const start = list[from];
    if (start === undefined) return undefined;
    const out: Stripped[] = [];
    let previous: string | undefined;
    for (const e of list.slice(from)) {
      if (e.epoch !== start.epoch) return undefined;
      if (e.json !== previous) out.push(JSON.parse(e.json) as Stripped);
      previous = e.json;
    }
    return out;
  }

  /** Whether the cache has held the object at `rv` (it may have moved on since). */
  has(key: string, rv: string): boolean {
    return this.#byKey.get(key)?.some((e) => e.rv === rv) ?? false;
  }

  /** The object as it was at `rv` (without status), if still remembered. */
  at(key: string, rv: string): Stripped | undefined {
    const json = this.#byKey.get(key)?.find((e) => e.rv === rv)?.json;
    return json === undefined ? undefined : (JSON.parse(json) as Stripped);
  }
}
