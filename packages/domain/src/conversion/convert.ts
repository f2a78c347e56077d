import type { ConversionContext } from './context';
import { kubeadmControlPlane } from './controlplane';
import { CORE_CONVERSIONS, type KindConversion } from './core';
import { cloneJson, CapiConversionError, goJsonMarshal, isObject, type JsonObject } from './json';
import { BOOTSTRAP_CONVERSIONS } from './kubeadm';
import { pruneTo } from './prune';
import { defaultRefApiVersionOf, type RefApiVersionOf } from './refs';

export { CapiConversionError } from './json';
export { defaultRefApiVersionOf, type RefApiVersionOf } from './refs';
export {
  durationToSeconds,
  formatGoDuration,
  GoDurationError,
  parseGoDurationExact,
  secondsToDuration,
} from './duration';

/**
 * Cluster API v1beta1 ⇄ v1beta2 (issue 23): one model inside, conversion at the edges.
 *
 * The console's hub — the one shape rules, views, planners and the web read — is
 * {@link CAPI_HUB_VERSION}: the v1beta1 shape as Cluster API ≥ v1.9 serves it, v1beta1's spec
 * plus the `status.v1beta2` block. Objects read in v1beta2 are converted to it with
 * {@link toHub}; objects the console writes are converted from it with {@link fromHub} to the
 * version the cluster serves. The conversion is upstream's (Cluster API v1.14.0's conversion
 * webhooks: `api/core/v1beta1/conversion.go`, `api/bootstrap/kubeadm/v1beta1/conversion.go`,
 * `api/controlplane/kubeadm/v1beta1/conversion.go`, their generated code, `util/conversion`), so
 * a hub object is what a v1beta1 client of a v1.14 cluster is served, annotation included:
 * v1beta2 → v1beta1 stores the v1beta2 object (without metadata) in
 * {@link CONVERSION_DATA_ANNOTATION}, and v1beta1 → v1beta2 takes it back out and restores from
 * it what v1beta1 cannot say (a `false` that was set, a Machine's minReadySeconds and phase, the
 * kubeadm timeouts v1beta1 has no field for…), exactly where upstream does.
 *
 * Inputs are plain JSON and never mutated; `__proto__`, `constructor`, `prototype` keys are
 * dropped (no Cluster API type has them). What the target version has no field for is dropped
 * as upstream's decoding drops it (`prune.ts`); `metadata` and `x-kubernetes-preserve-unknown-
 * fields` subtrees pass as they are. A value upstream's decoding refuses (a v1beta1 duration that
 * is not a Go duration, an apiVersion with two slashes) throws {@link CapiConversionError}
 * naming the field.
 */

/** The version the console's model is written against. */
export const CAPI_HUB_VERSION = 'v1beta1';

/** Both versions of the convertible groups, oldest first. */
export const CAPI_VERSIONS = ['v1beta1', 'v1beta2'] as const;
export type CapiVersion = (typeof CAPI_VERSIONS)[number];

/** `utilconversion.DataAnnotation`. */
export const CONVERSION_DATA_ANNOTATION = 'cluster.x-k8s.io/conversion-data';

const CONVERSIONS: Readonly<Record<string, Readonly<Record<string, KindConversion>>>> = {
  'cluster.x-k8s.io': CORE_CONVERSIONS,
  'bootstrap.cluster.x-k8s.io': BOOTSTRAP_CONVERSIONS,
  'controlplane.cluster.x-k8s.io': { KubeadmControlPlane: kubeadmControlPlane },
};

/** The groups whose kinds this module converts. */
export const CAPI_CONVERTIBLE_GROUPS = Object.keys(CONVERSIONS);

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

const isCapiVersion = (v: string): v is CapiVersion => v === 'v1beta1' || v === 'v1beta2';

function conversionOf(group: string, kind: string): KindConversion | undefined {
  const byKind = Object.hasOwn(CONVERSIONS, group) ? CONVERSIONS[group] : undefined;
  const base = kind.endsWith('List') ? kind.slice(0, -'List'.length) : kind;
  return byKind && Object.hasOwn(byKind, base) ? byKind[base] : undefined;
}

/**
 * Whether objects of `kind` at `apiVersion` (`group/version`) are converted here:
 * the nine Cluster API kinds the product uses (and their List kinds) at v1beta1 or v1beta2.
 */
export function capiConvertible(apiVersion: string, kind: string): boolean {
  const { group, version } = splitApiVersion(apiVersion);
  return isCapiVersion(version) && conversionOf(group, kind) !== undefined;
}

export interface CapiConversionOptions {
  /**
   * (group, kind) → the apiVersion a v1beta1 reference is rebuilt with from a v1beta2
   * `{apiGroup, kind, name}`, what upstream asks the cluster's CRDs (their contract label):
   * {@link defaultRefApiVersionOf} answers for a v1.14 cluster with the DCS provider.
   */
  readonly refApiVersionOf?: RefApiVersionOf;
}

/** Any object this module takes: a Kubernetes object in plain JSON. */
export interface CapiObjectLike {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: unknown;
  [field: string]: unknown;
}

/**
 * `obj` (a convertible kind at v1beta1 or v1beta2, or its List) as `toApiVersion`
 * (`group/v1beta1` or `group/v1beta2` of the same group). The same version gives a copy. Throws
 * {@link CapiConversionError} for a value upstream refuses, `Error` for a call that makes no
 * sense (another group, a kind this module does not convert).
 */
export function convertCapiObject<T extends CapiObjectLike>(
  obj: T,
  toApiVersion: string,
  options: CapiConversionOptions = {},
): T {
  const from = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const src = splitApiVersion(from);
  const dst = splitApiVersion(toApiVersion);
  if (src.group !== dst.group) {
    throw new Error(`convertCapiObject: ${kind} ${from} cannot become ${toApiVersion}`);
  }
  const conversion = conversionOf(src.group, kind);
  if (!conversion || !isCapiVersion(src.version) || !isCapiVersion(dst.version)) {
    throw new Error(
      `convertCapiObject: ${kind} ${from} → ${toApiVersion} is not a Cluster API conversion`,
    );
  }
  const refApiVersionOf = options.refApiVersionOf ?? defaultRefApiVersionOf;
  const fromVersion: CapiVersion = src.version;
  const toVersion: CapiVersion = dst.version;
  if (kind.endsWith('List')) {
    const list = (cloneJson(obj) ?? {}) as JsonObject;
    list.apiVersion = toApiVersion;
    const itemKind = kind.slice(0, -'List'.length);
    if (Array.isArray(list.items)) {
      list.items = list.items.map((item, i) => {
        if (!isObject(item)) {
          throw new CapiConversionError(`items[${String(i)}]`, 'a list item is an object');
        }
        const typed: JsonObject = {
          ...item,
          apiVersion: item.apiVersion ?? from,
          kind: item.kind ?? itemKind,
        };
        return convertOne(
          typed,
          itemKind,
          src.group,
          fromVersion,
          toVersion,
          conversion,
          refApiVersionOf,
          `items[${String(i)}].`,
        );
      });
    }
    return list as T;
  }
  return convertOne(
    (cloneJson(obj) ?? {}) as JsonObject,
    kind,
    src.group,
    fromVersion,
    toVersion,
    conversion,
    refApiVersionOf,
    '',
  ) as T;
}

function convertOne(
  input: JsonObject,
  kind: string,
  group: string,
  from: CapiVersion,
  to: CapiVersion,
  conversion: KindConversion,
  refApiVersionOf: RefApiVersionOf,
  prefix: string,
): JsonObject {
  if (from === to) return input;
  try {
    // What the webhook decodes: the source version's Go types.
    const decoded = pruneTo(kind, from, input);
    const metadata = isObject(decoded.metadata) ? decoded.metadata : undefined;
    const namespace = typeof metadata?.namespace === 'string' ? metadata.namespace : '';
    if (from === 'v1beta1') {
      const restored = takeConversionData(decoded);
      const ctx: ConversionContext = { namespace, refApiVersionOf, restored };
      conversion.up(decoded, ctx);
      decoded.apiVersion = `${group}/${to}`;
      return pruneTo(kind, to, decoded);
    }
    // MarshalData: the v1beta2 object as decoded, without metadata. `decoded` is the pruned
    // copy of this call's own clean copy (convertCapiObject's cloneJson), shared with nothing:
    // it is marshalled as it is, then converted in place (issue 28: two deep copies less on
    // every v1beta2 watch event).
    const { metadata: _metadata, ...hub } = decoded;
    const data = conversion.marshalsData ? goJsonMarshal(hub) : undefined;
    const out = decoded;
    conversion.down(out, { namespace, refApiVersionOf });
    out.apiVersion = `${group}/${to}`;
    const pruned = pruneTo(kind, to, out);
    if (data !== undefined) {
      const meta = isObject(pruned.metadata) ? pruned.metadata : (pruned.metadata = {});
      const annotations = isObject(meta.annotations) ? meta.annotations : (meta.annotations = {});
      annotations[CONVERSION_DATA_ANNOTATION] = data;
    }
    return pruned;
  } catch (e) {
    if (e instanceof CapiConversionError && prefix !== '') {
      throw new CapiConversionError(`${prefix}${e.field}`, e.rule);
    }
    throw e;
  }
}

/** UnmarshalData: the annotation's v1beta2 object, removed from the object it came with. */
function takeConversionData(o: JsonObject): JsonObject | undefined {
  const metadata = isObject(o.metadata) ? o.metadata : undefined;
  const annotations = isObject(metadata?.annotations) ? metadata.annotations : undefined;
  if (!annotations || !Object.hasOwn(annotations, CONVERSION_DATA_ANNOTATION)) return undefined;
  const text = annotations[CONVERSION_DATA_ANNOTATION];
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof text === 'string' ? text : '');
  } catch (e) {
    throw new CapiConversionError(
      `metadata.annotations[${CONVERSION_DATA_ANNOTATION}]`,
      `the conversion data is not JSON: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  Reflect.deleteProperty(annotations, CONVERSION_DATA_ANNOTATION);
  // ObjectMeta's annotations are omitempty: an emptied map is left out.
  if (metadata && Object.keys(annotations).length === 0) delete metadata.annotations;
  const restored = cloneJson(parsed);
  return isObject(restored) ? restored : {};
}

/** `obj` in the hub version: a v1beta2 Cluster API object converted, anything else copied. */
export function toHub<T extends CapiObjectLike>(obj: T, options: CapiConversionOptions = {}): T {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const { group, version } = splitApiVersion(apiVersion);
  if (version === CAPI_HUB_VERSION || !capiConvertible(apiVersion, kind)) {
    return (cloneJson(obj) ?? {}) as T;
  }
  return convertCapiObject(obj, `${group}/${CAPI_HUB_VERSION}`, options);
}

/** A hub object as `version` (what the cluster serves for its group); others copied. */
export function fromHub<T extends CapiObjectLike>(
  obj: T,
  version: string,
  options: CapiConversionOptions = {},
): T {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const { group } = splitApiVersion(apiVersion);
  if (version === CAPI_HUB_VERSION || !capiConvertible(apiVersion, kind)) {
    return (cloneJson(obj) ?? {}) as T;
  }
  return convertCapiObject(obj, `${group}/${version}`, options);
}
