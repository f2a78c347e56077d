import {
  CAPI_HUB_VERSION,
  capiConvertible,
  fromHub,
  type CapiConversionOptions,
} from '../conversion';
import { kindTable } from '../kinds';
import { diffObjects } from './diff';
import {
  applyJsonPatch,
  applyMergePatch,
  escapePointerToken,
  getAtPointer,
  isTestOp,
  jsonEqual,
  testOp,
  type JsonPatchOp,
  type JsonPointer,
} from './json-patch';
import { kubectlFor, kubectlForVersion } from './kubectl';
import { applyStep } from './objects';
import type { KubeObject, ObjectDiff, PatchStep, Plan, PlanStep } from './plan';

/**
 * A Plan as it is sent (issue 23). Planners write against the hub (`CAPI_HUB_VERSION`, v1beta1
 * as Cluster API ≥ v1.9 serves it); a cluster that serves v1beta2 for a group gets that group's
 * objects in v1beta2: create and update bodies converted (`fromHub`), and each JSON patch
 * re-expressed: its ops are applied to the hub object it was planned against, both sides are
 * converted, and their difference is the patch sent. Its preconditions:
 *
 * - the `test` ops of `metadata.resourceVersion` and `metadata.uid` are kept as they are;
 * - a field test whose path and value are the same in the wire object is kept (`/spec/replicas`,
 *   an annotation); one whose field moved (`/spec/strategy/...` is `/spec/rollout/...` in v1beta2)
 *   is dropped, because every path the wire patch replaces or removes gets its own `test` of the
 *   value it holds in the converted object: the same guarantee ("each field changed is still what
 *   the user saw"), said in the wire version's paths;
 * - a merge patch (planners send them for annotations only) is version-independent and is kept.
 *
 * Undo patches are re-expressed the same way against the object their step leaves. The diffs and
 * the kubectl equivalents speak the wire version too. When every group involved is served in the
 * hub version, the plan is returned as it is.
 */

/** The version a cluster serves for an API group (from discovery, in the BFF). */
export type ServedVersionOf = (group: string) => string;

const key = (kind: string, namespace: string | undefined, name: string | undefined) =>
  `${kind}/${namespace ?? ''}/${name ?? ''}`;

export function planForVersions(
  plan: Plan,
  servedVersionOf: ServedVersionOf,
  objects: readonly KubeObject[],
  options: CapiConversionOptions = {},
): Plan {
  const wireVersionOf = (kind: string): string | undefined => {
    const info = (kindTable as Record<string, { group: string } | undefined>)[kind];
    if (!info?.group) return undefined;
    const version = servedVersionOf(info.group);
    return version !== CAPI_HUB_VERSION && capiConvertible(`${info.group}/${version}`, kind)
      ? version
      : undefined;
  };
  const touched = [...plan.steps.map((s) => s.kind), ...plan.diffs.map((d) => d.kind)];
  if (!touched.some((k) => wireVersionOf(k) !== undefined)) return plan;

  const convert = <T extends KubeObject>(o: T, version: string): T => fromHub(o, version, options);
  const state = new Map(
    objects.map((o) => [key(o.kind, o.metadata.namespace, o.metadata.name), o]),
  );
  const steps: PlanStep[] = [];
  const kubectl: string[] = [];
  plan.steps.forEach((step, i) => {
    const k = key(step.kind, step.namespace, step.name);
    const current = state.get(k);
    const version = wireVersionOf(step.kind);
    let after: KubeObject | undefined;
    try {
      after = applyStep(current, step);
    } catch (e) {
      if (version && step.verb === 'patch') {
        throw new Error(
          `planForVersions: step ${String(i)} (${step.kind} ${step.name}) does not apply to the object it was planned against: ${e instanceof Error ? e.message : String(e)}`,
          { cause: e },
        );
      }
      after = undefined;
    }
    if (after) state.set(k, after);
    else state.delete(k);
    if (!version) {
      steps.push(step);
      kubectl.push(plan.kubectl[i] ?? kubectlFor(step));
      return;
    }
    const wire = wireStep(step, current, after, version, convert);
    steps.push(wire);
    kubectl.push(kubectlForVersion(wire, version));
  });
  const diffs = plan.diffs.map((d) => {
    const version = wireVersionOf(d.kind);
    return version ? wireDiff(d, version, convert) : d;
  });
  return { ...plan, steps, kubectl, diffs };
}

type Convert = <T extends KubeObject>(o: T, version: string) => T;

function wireStep(
  step: PlanStep,
  current: KubeObject | undefined,
  after: KubeObject | undefined,
  version: string,
  convert: Convert,
): PlanStep {
  switch (step.verb) {
    case 'create':
      return { ...step, body: convert(step.body, version) };
    case 'update': {
      const undo = step.undo && after ? wirePatch(step.undo, after, version, convert) : step.undo;
      return { ...step, body: convert(step.body, version), ...(undo ? { undo } : {}) };
    }
    case 'delete':
      return step.undo
        ? { ...step, undo: { ...step.undo, body: convert(step.undo.body, version) } }
        : step;
    case 'patch': {
      if (!current) {
        throw new Error(
          `planForVersions: a patch of ${step.kind} ${step.name} needs the object it was planned against`,
        );
      }
      return wirePatch(step, current, version, convert);
    }
  }
}

/** A patch step planned against `current` (hub), as sent in `version`; its undo likewise. */
function wirePatch(
  step: PatchStep,
  current: KubeObject,
  version: string,
  convert: Convert,
): PatchStep {
  const afterHub =
    step.patch.type === 'json'
      ? applyJsonPatch(current, step.patch.ops)
      : applyMergePatch(current, step.patch.doc);
  const undo = step.undo ? wirePatch(step.undo, afterHub, version, convert) : undefined;
  const base = { ...step, ...(undo ? { undo } : {}) };
  if (step.patch.type === 'merge') return base;
  const before = convert(current, version);
  const after = convert(afterHub, version);
  const changes = jsonPatchBetween(before, after);
  const tests: JsonPatchOp[] = [];
  const tested = new Set<JsonPointer>();
  const addTest = (path: JsonPointer, value: unknown) => {
    if (tested.has(path)) return;
    tested.add(path);
    tests.push(testOp(path, value));
  };
  for (const op of step.patch.ops) {
    if (!isTestOp(op)) continue;
    if (op.path === '/metadata/resourceVersion' || op.path === '/metadata/uid') {
      addTest(op.path, op.value);
      continue;
    }
    const there = getAtPointer(before, op.path);
    if (there.found && jsonEqual(there.value, op.value)) addTest(op.path, op.value);
  }
  for (const op of changes) {
    if (op.op !== 'replace' && op.op !== 'remove') continue;
    const there = getAtPointer(before, op.path);
    if (there.found) addTest(op.path, there.value);
  }
  const ops = [...tests, ...changes];
  const precondition = step.precondition
    ? { ...step.precondition, tests: tests.filter(isTestOp) }
    : undefined;
  return {
    ...base,
    patch: { type: 'json', ops },
    ...(precondition ? { precondition } : {}),
  };
}

function wireDiff(d: ObjectDiff, version: string, convert: Convert): ObjectDiff {
  const before = d.before ? convert(d.before, version) : undefined;
  const after = d.after ? convert(d.after, version) : undefined;
  return {
    ...d,
    ...(before ? { before } : {}),
    ...(after ? { after } : {}),
    changes: diffObjects(before, after),
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The JSON patch that turns `a` into `b`: objects member by member (a missing subtree is added
 * whole at its top), anything else (scalars, lists) replaced whole when it differs.
 */
export function jsonPatchBetween(a: unknown, b: unknown, path: JsonPointer = ''): JsonPatchOp[] {
  if (jsonEqual(a, b)) return [];
  if (!isRecord(a) || !isRecord(b)) return [{ op: 'replace', path, value: b }];
  const ops: JsonPatchOp[] = [];
  for (const k of Object.keys(a)) {
    const p = `${path}/${escapePointerToken(k)}`;
    if (!Object.hasOwn(b, k)) ops.push({ op: 'remove', path: p });
    else ops.push(...jsonPatchBetween(a[k], b[k], p));
  }
  for (const k of Object.keys(b)) {
    if (!Object.hasOwn(a, k))
      ops.push({ op: 'add', path: `${path}/${escapePointerToken(k)}`, value: b[k] });
  }
  return ops;
}
