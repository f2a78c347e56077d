import { normalizeKubeVersion, type MachineSpec } from '@dcs/domain';
import { fnv1a32, type Random } from './random';

/**
 * Names and the machine-template hash, as Cluster API v1.10 computes them
 * (machinedeployment_sync.go computeDesiredMachineSet, mdutil.MachineTemplateDeepCopyRolloutFields).
 */

/** What a MachineDeployment's `spec.template` holds: labels, annotations, the machine spec. */
export interface MachineTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: MachineSpec;
}

const MAX_NAME_LENGTH = 63;
const RANDOM_LENGTH = 5;

/** apiserver's SimpleNameGenerator: the base cut to leave room for 5 random characters. */
export function generateName(base: string, rng: Random): { name: string; suffix: string } {
  const cut =
    base.length > MAX_NAME_LENGTH - RANDOM_LENGTH
      ? base.slice(0, MAX_NAME_LENGTH - RANDOM_LENGTH)
      : base;
  const suffix = rng.string(RANDOM_LENGTH);
  return { name: `${cut}${suffix}`, suffix };
}

/** `group` of an apiVersion `group/version` (the core group is ""). */
function groupOf(apiVersion: string | undefined): string | undefined {
  if (apiVersion === undefined) return undefined;
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/**
 * The part of a machine template whose change rolls machines: everything but labels,
 * annotations and the node timeouts (mutable in place), with references compared by group and
 * not by API version.
 */
export function rolloutFields(template: MachineTemplate): Record<string, unknown> {
  const {
    nodeDrainTimeout: _drain,
    nodeDeletionTimeout: _deletion,
    nodeVolumeDetachTimeout: _detach,
    ...spec
  } = template.spec;
  const configRef = spec.bootstrap.configRef;
  return {
    ...spec,
    ...(spec.version ? { version: normalizeKubeVersion(spec.version) } : {}),
    infrastructureRef: {
      ...spec.infrastructureRef,
      apiVersion: groupOf(spec.infrastructureRef.apiVersion),
    },
    bootstrap: {
      ...spec.bootstrap,
      ...(configRef
        ? { configRef: { ...configRef, apiVersion: groupOf(configRef.apiVersion) } }
        : {}),
    },
  };
}

/** JSON with sorted keys, without undefined or null members: equal values, equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Deep equality of JSON values where a member that is undefined or null counts as absent (as
 * canonicalJson sees them), without serializing: the controllers compare every status they
 * compute with the one they read, thousands of times a second.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) {
    return (a ?? null) === (b ?? null);
  }
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let present = 0;
  for (const k in x) {
    const v = x[k];
    if (v === undefined || v === null) continue;
    present++;
    if (!sameJson(v, y[k])) return false;
  }
  for (const k in y) {
    const v = y[k];
    if (v !== undefined && v !== null) present--;
  }
  return present === 0;
}

/** Cluster API's MachineTemplateUpToDate: would a machine made from `a` be the same as from `b`? */
export function sameRolloutFields(a: MachineTemplate, b: MachineTemplate): boolean {
  return canonicalJson(rolloutFields(a)) === canonicalJson(rolloutFields(b));
}

/**
 * The template hash. Cluster API hashes a spew dump with FNV-32a; the simulation hashes the
 * canonical JSON of the same fields with FNV-32a: equally stable, not byte-identical to Go's.
 */
export function machineTemplateHash(template: MachineTemplate): number {
  return fnv1a32(canonicalJson(rolloutFields(template)));
}

/**
 * A new MachineSet's name and its `machine-template-hash` label: `<md>-<suffix>` and
 * `<hash>-<suffix>` (Cluster API ≥ 1.4 adds the suffix so that two sets with one template differ).
 */
export function newMachineSetIdentity(
  deploymentName: string,
  template: MachineTemplate,
  rng: Random,
): { name: string; templateHashLabel: string } {
  const { name, suffix } = generateName(`${deploymentName}-`, rng);
  return { name, templateHashLabel: `${machineTemplateHash(template)}-${suffix}` };
}
