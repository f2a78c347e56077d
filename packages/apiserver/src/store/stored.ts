import { asStringMap, isObject } from '../json';
import { getJsonPath } from '../jsonpath';
import { convertOne, storageKey, type ResourceType } from '../registry';
import type { KubeObject } from '../types';

/**
 * One version of one object as stored: serialized once, at commit, and the same bytes are reused
 * by every get, list page and watch event that carries this version. The parsed object is not
 * kept (memory); what selectors, indexes and the garbage collector need is extracted here once.
 */
export class Stored {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly ownerUids: readonly string[];
  readonly finalizers: readonly string[];
  readonly deleting: boolean;
  /** UTF-8 length of `json`, and whether it is ASCII (then it is copied, not encoded). */
  readonly bytes: number;
  readonly ascii: boolean;
  private readonly fieldValues: ReadonlyMap<string, string>;
  /** Raw printer-column values (dates unformatted), computed on first Table request. */
  cells?: unknown[];
  /**
   * The version as stored: itself, or for a version read through another API (`as`) the stored
   * one it was converted from. The store indexes, removes and persists only stored versions.
   */
  readonly base: Stored;
  /** This version converted for the other members of its set that read it, made on first read. */
  private views?: Map<ResourceType, Stored>;

  constructor(
    readonly rt: ResourceType,
    readonly rv: number,
    readonly json: string,
    obj: KubeObject,
    base?: Stored,
  ) {
    this.base = base ?? this;
    this.bytes = Buffer.byteLength(json);
    this.ascii = this.bytes === json.length;
    const m = obj.metadata;
    this.namespace = m.namespace ?? '';
    this.name = m.name ?? '';
    this.uid = m.uid ?? '';
    this.labels = asStringMap(m.labels);
    this.ownerUids = (m.ownerReferences ?? []).map((r) => r.uid);
    this.finalizers = m.finalizers ?? [];
    this.deleting = typeof m.deletionTimestamp === 'string';
    const fields = new Map<string, string>();
    for (const f of rt.selectableFields) {
      const v = getJsonPath(obj, `.${f}`)[0];
      if (v !== undefined && v !== null && !isObject(v) && !Array.isArray(v)) {
        fields.set(f, typeof v === 'string' ? v : JSON.stringify(v));
      }
    }
    this.fieldValues = fields;
  }

  /**
   * This version as the resource `rt` serves it: itself when `rt` is what it is stored as, else
   * converted once (JSON, labels, selectable fields of `rt`) and kept with this version, so every
   * reader and watcher of that version or API shares one conversion. `rt` must be a member of
   * this resource's set (`VersionSet`); the conversion may throw (a failing conversion webhook).
   */
  as(rt: ResourceType): Stored {
    if (this.base !== this) return this.base.as(rt);
    if (rt === this.rt) return this;
    const set = rt.versions;
    if (set?.key !== storageKey(this.rt)) return this;
    let view = this.views?.get(rt);
    if (!view) {
      const obj = convertOne(set, this.object(), this.rt, rt);
      view = new Stored(rt, this.rv, JSON.stringify(obj), obj, this);
      (this.views ??= new Map()).set(rt, view);
    }
    return view;
  }

  /** Whether reading this version as `rt` needs a conversion not made yet. */
  needsConversion(rt: ResourceType): boolean {
    const b = this.base;
    return b.rt !== rt && rt.versions?.key === storageKey(b.rt) && !b.views?.has(rt);
  }

  /**
   * Converts the stored versions of `items` that `rt` has not read yet together, one call per
   * version they are stored in, as kube-apiserver sends a list's items to a conversion webhook
   * in one ConversionReview; each result is kept as `as(rt)` keeps it.
   */
  static convertAll(items: readonly Stored[], rt: ResourceType): void {
    const set = rt.versions;
    if (!set) return;
    const bySource = new Map<ResourceType, Stored[]>();
    for (const s of items) {
      if (!s.needsConversion(rt)) continue;
      const b = s.base;
      const group = bySource.get(b.rt) ?? [];
      group.push(b);
      bySource.set(b.rt, group);
    }
    for (const [from, group] of bySource) {
      const out = set.convert(
        group.map((b) => b.object()),
        from,
        rt,
      );
      group.forEach((b, i) => {
        const obj = out[i];
        if (obj) (b.views ??= new Map()).set(rt, new Stored(rt, b.rv, JSON.stringify(obj), obj, b));
      });
    }
  }

  get key(): string {
    return `${this.namespace}/${this.name}`;
  }

  /** A fresh, mutable copy of the object. */
  object(): KubeObject {
    return JSON.parse(this.json) as KubeObject;
  }

  field(name: string): string | undefined {
    if (name === 'metadata.name') return this.name;
    if (name === 'metadata.namespace') return this.namespace;
    return this.fieldValues.get(name);
  }
}

/**
 * Several stored versions' JSON, comma-separated, between `head` and `tail`, in one buffer of
 * the exact size: no list-sized string is built and each object is copied once.
 */
export function joinJson(head: string, items: readonly Stored[], tail: string): Buffer {
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, items.length - 1);
  for (const s of items) size += s.bytes;
  const out = Buffer.allocUnsafe(size);
  let at = out.write(head, 0, 'utf8');
  for (let i = 0; i < items.length; i++) {
    const s = items[i];
    if (!s) continue;
    if (i > 0) out[at++] = 0x2c; // ','
    // ASCII is the same in Latin-1 and UTF-8, and Latin-1 is a plain copy of a one-byte string.
    at += out.write(s.json, at, s.bytes, s.ascii ? 'latin1' : 'utf8');
  }
  out.write(tail, at, 'utf8');
  return out;
}

export function objectKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}
