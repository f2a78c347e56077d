import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { KUBEADM_CONFIG_SPEC_TREE } from '../generated/kubeadm-config-spec-fields';
import { defaultBootstrapSpec } from '../planners/bootstrap-defaults';
import { planEditControlPlaneConfig } from '../planners/control-plane-config';
import { planCreatePool } from '../planners/create-pool';
import type { Plan } from '../planners/plan';
import {
  aCreatePoolRequest,
  aKubeadmControlPlane,
  anIpEntry,
  aValidationContext,
} from '../testing';
import type { FieldTree } from './known-fields';
import {
  CreateIpPoolRequestSchema,
  CreatePoolRequestSchema,
  DeletePoolRequestSchema,
  EditControlPlaneConfigRequestSchema,
  EditStrategyRequestSchema,
  PauseRequestSchema,
  AutoscaleRequestSchema,
  RestartRequestSchema,
  PatchIpPoolRequestSchema,
  requestIssues,
  ScaleRequestSchema,
  UpgradeRequestSchema,
} from '.';

/**
 * Issue 11, root of the class "a request part the API server (or the console) silently drops":
 * for every mutating request schema, an unknown key is inserted at every object path of valid
 * requests that fill every optional object part. Each must be refused with a 400 naming exactly
 * that path, or, where the schema is deliberately open (a map such as kubeletExtraArgs, whose
 * keys are data), be accepted and kept: in the parsed request and in what the plan writes.
 * Keys are drawn by fast-check (fixed seed, printed): typos of a sibling, other names, and
 * `__proto__` / `constructor` / `prototype` (read as data, never as the prototype).
 */
const SEED = 20261212;
const RUNS = 40;

type Path = (string | number)[];

const nic = {
  ip: '192.168.10.20',
  mask: '24',
  gateway: '192.168.10.1',
  dns: '192.168.10.2',
  dvSwitchName: 'dvs-storage',
  portGroupName: 'pg-storage',
};
const disk = {
  slot: 0,
  quantityGB: 40,
  datastoreClusterName: 'ds-cluster-1',
  path: '/var/cpaas',
  format: 'xfs',
  options: 'noatime',
  pciType: 'VIRTIO',
  isThin: true,
};
const fullEntry = (n: number) => ({
  ...anIpEntry(n),
  dns: '10.0.0.2',
  hostname: `worker-node-${String(n)}`,
  machineName: `worker-vm-${String(n)}`,
  additionNic: [nic],
  persistentDisk: [disk],
});
const machineSpec = (() => {
  const base = aCreatePoolRequest().machineTemplate;
  if (base.mode !== 'new') throw new Error('the builder makes a new template');
  return {
    ...base.spec,
    location: { type: 'folder', name: 'k8s-workers' },
    resource: { type: 'cluster', name: 'r1' },
    vmConfig: { ...base.spec.vmConfig, dvSwitchName: 'dvs-1', portGroupName: 'pg-1' },
  };
})();
const bootstrapSpec = {
  ...defaultBootstrapSpec({
    version: 'v1.33.4',
    sshAuthorizedKeys: ['ssh-ed25519 AAAA k'],
    filesSecret: 'dcs-kubernetes-1.33-files',
  }),
  ntp: { enabled: true, servers: ['10.0.0.9'] },
  clusterConfiguration: { apiServer: { extraArgs: { 'audit-log-maxage': '7' } } },
};

interface Case {
  name: string;
  schema: z.ZodType;
  bodies: unknown[];
  /** What the request writes, for an accepted key in an open part. */
  plan?: (parsed: unknown) => Plan;
}

const CASES: Case[] = [
  {
    name: 'O-CREATE-POOL',
    schema: CreatePoolRequestSchema,
    bodies: [
      aCreatePoolRequest({
        machineTemplate: { mode: 'new', name: 'demo-md-1-template', spec: machineSpec },
        bootstrap: { mode: 'new', name: 'demo-md-1-kct', spec: bootstrapSpec },
        ipPool: { mode: 'new', name: 'demo-md-1-ippool', entries: [fullEntry(4)] },
        strategy: { maxSurge: 1, maxUnavailable: 0, deletePolicy: 'Oldest' },
        nodeDrainTimeout: '5m',
        nodeDeletionTimeout: '10s',
        nodeVolumeDetachTimeout: '0',
      }),
      aCreatePoolRequest({
        machineTemplate: { mode: 'existing', name: 'demo-md-0-template' },
        bootstrap: { mode: 'existing', name: 'demo-md-0-kct' },
        ipPool: {
          mode: 'existing',
          name: 'demo-worker-pool',
          resourceVersion: '1',
          append: [fullEntry(7)],
        },
      }),
    ],
    plan: (req) => planCreatePool(CreatePoolRequestSchema.parse(req), {}, aValidationContext()),
  },
  {
    name: 'O-SCALE-UP / O-SCALE-DOWN-TARGETED',
    schema: ScaleRequestSchema,
    bodies: [
      {
        replicas: 4,
        resourceVersion: '1',
        ipPoolAppend: { name: 'demo-worker-pool', resourceVersion: '1', entries: [fullEntry(7)] },
      },
      {
        deleteMachines: ['demo-md-0-abc12-m1'],
        resourceVersion: '1',
        machineResourceVersions: { 'demo-md-0-abc12-m1': '3' },
      },
    ],
  },
  {
    name: 'O-UPGRADE-*',
    schema: UpgradeRequestSchema,
    bodies: [
      {
        operation: 'infrastructure',
        resourceVersion: '1',
        machineTemplate: { name: 'demo-md-0-template-r2', spec: machineSpec },
      },
      {
        operation: 'kubernetes',
        resourceVersion: '1',
        version: 'v1.34.1',
        machineTemplate: { name: 'demo-md-0-template-v1-34-1', spec: machineSpec },
        bootstrap: { name: 'demo-md-0-kct-v1-34-1', spec: bootstrapSpec },
      },
      {
        operation: 'bootstrap',
        resourceVersion: '1',
        bootstrap: { name: 'demo-md-0-kct-r2', spec: bootstrapSpec },
      },
      {
        operation: 'control-plane',
        resourceVersion: '1',
        version: 'v1.34.1',
        machineTemplate: { name: 'demo-control-plane-v1-34-1', spec: machineSpec },
      },
    ],
  },
  {
    name: 'O-EDIT-STRATEGY',
    schema: EditStrategyRequestSchema,
    bodies: [
      {
        resourceVersion: '1',
        maxSurge: '25%',
        maxUnavailable: 0,
        nodeDrainTimeout: '5m',
        nodeDeletionTimeout: null,
        nodeVolumeDetachTimeout: '1h',
      },
    ],
  },
  {
    name: 'O-PAUSE',
    schema: PauseRequestSchema,
    bodies: [{ resourceVersion: '1', paused: true }],
  },
  {
    name: 'O-AUTOSCALE',
    schema: AutoscaleRequestSchema,
    bodies: [
      { resourceVersion: '1', minSize: 1, maxSize: 5, replicas: 2 },
      { resourceVersion: '1', minSize: null, maxSize: null },
    ],
  },
  {
    name: 'O-RESTART',
    schema: RestartRequestSchema,
    bodies: [{ resourceVersion: '1' }, { resourceVersion: '1', at: '2026-05-01T22:00:00Z' }],
  },
  {
    name: 'O-DELETE-POOL',
    schema: DeletePoolRequestSchema,
    bodies: [
      {
        resourceVersion: '1',
        removeMachineTemplate: true,
        removeBootstrapTemplate: true,
        removeIpPool: false,
      },
    ],
  },
  {
    name: 'create IP pool',
    schema: CreateIpPoolRequestSchema,
    bodies: [{ name: 'storage-pool', entries: [fullEntry(4), fullEntry(5)] }],
  },
  {
    name: 'patch IP pool',
    schema: PatchIpPoolRequestSchema,
    bodies: [
      {
        resourceVersion: '1',
        append: [fullEntry(8)],
        remove: ['10.0.1.14'],
        update: [
          {
            ip: '10.0.1.10',
            additionNic: [nic],
            persistentDisk: [disk],
            set: {
              ip: '10.0.1.30',
              mask: '24',
              gateway: '10.0.1.1',
              dns: '10.0.0.2',
              hostname: 'worker-node-30',
              machineName: 'worker-vm-30',
            },
          },
        ],
      },
    ],
  },
  {
    name: 'O-EDIT-CP-CONFIG',
    schema: EditControlPlaneConfigRequestSchema,
    bodies: [{ resourceVersion: '7', kubeadmConfigSpec: bootstrapSpec }],
    plan: (req) => {
      const kcp = aKubeadmControlPlane({ metadata: { resourceVersion: '7' } });
      return planEditControlPlaneConfig(
        EditControlPlaneConfigRequestSchema.parse(req),
        { kubeadmControlPlane: kcp },
        aValidationContext(),
      );
    },
  },
];

// --- the oracle: which spots are maps (open), from the schemas themselves ------------------------

interface Json {
  properties?: Record<string, Json>;
  additionalProperties?: Json | boolean;
  items?: Json;
  anyOf?: Json[];
  oneOf?: Json[];
}

/** Every object node of the value, with its path (arrays walked into). */
function objectPaths(value: unknown, path: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...path, i]));
  return [path, ...Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...path, k]))];
}

/** The spot a KubeadmConfigSpec sits at: judged by upstream's CRD from there on. */
const isKubeadmSpec = (path: Path) =>
  path.at(-1) === 'kubeadmConfigSpec' || (path.at(-1) === 'spec' && path.at(-2) === 'bootstrap');

function treeAt(tree: FieldTree, rest: Path): FieldTree | undefined {
  let cur: FieldTree | undefined = tree;
  for (const seg of rest) {
    if (!cur) return undefined;
    if (typeof seg === 'number') cur = cur.items;
    else if (cur.properties)
      cur = Object.hasOwn(cur.properties, seg) ? cur.properties[seg] : undefined;
    else cur = cur.values;
  }
  return cur;
}

/**
 * Whether the object at `path` is a map (any key is data): zod's rendering of the request says
 * so (a record), or, inside a KubeadmConfigSpec, upstream's CRD does (additionalProperties).
 */
function isMapAt(json: Json, path: Path): boolean {
  const nodes = (j: Json): Json[] => [
    j,
    ...(j.anyOf ?? []).flatMap(nodes),
    ...(j.oneOf ?? []).flatMap(nodes),
  ];
  let cur: Json[] = [json];
  for (let i = 0; i < path.length; i++) {
    if (isKubeadmSpec(path.slice(0, i))) {
      const t = treeAt(KUBEADM_CONFIG_SPEC_TREE, path.slice(i));
      return t?.values !== undefined;
    }
    const seg = path[i];
    cur = cur.flatMap(nodes).flatMap((n): Json[] => {
      if (typeof seg === 'number') return n.items ? [n.items] : [];
      const child =
        n.properties && seg !== undefined
          ? Object.entries(n.properties).find(([k]) => k === seg)?.[1]
          : undefined;
      return child ? [child] : [];
    });
  }
  if (isKubeadmSpec(path)) return KUBEADM_CONFIG_SPEC_TREE.values !== undefined;
  return cur
    .flatMap(nodes)
    .some(
      (n) =>
        n.properties === undefined &&
        n.additionalProperties !== undefined &&
        n.additionalProperties !== false,
    );
}

function getAt(value: unknown, path: Path): unknown {
  let cur = value;
  for (const p of path) {
    if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, p)) return undefined;
    cur = (cur as Record<string | number, unknown>)[p];
  }
  return cur;
}

/** `body` with `key: value` added, as an own property (as JSON.parse makes `__proto__`). */
function inserted(body: unknown, path: Path, key: string, value: unknown): unknown {
  const copy = structuredClone(body);
  const target = getAt(copy, path);
  if (typeof target !== 'object' || target === null)
    throw new Error(`no object at ${path.join('.')}`);
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

/** A key for the object at `path`: a typo of a sibling, another name, or a prototype's name. */
function keyFor(obj: object): fc.Arbitrary<string> {
  const siblings = Object.keys(obj);
  const typo = siblings.length
    ? fc
        .tuple(fc.constantFrom(...siblings), fc.nat(), fc.constantFrom('drop', 'double', 'case'))
        .map(([k, i, how]) => {
          const at = i % Math.max(1, k.length);
          if (how === 'drop') return k.slice(0, at) + k.slice(at + 1);
          if (how === 'double') return k.slice(0, at) + (k[at] ?? 'x') + k.slice(at);
          return k.slice(0, at) + (k[at] ?? 'x').toUpperCase() + k.slice(at + 1);
        })
    : fc.constant('extra');
  return fc
    .oneof(
      typo,
      fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,11}$/),
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'status', 'metadata'),
    )
    .filter((k) => k !== '' && !siblings.includes(k));
}

describe(`issue 11: an unknown key anywhere in a mutating request is refused at its path, or kept where the schema is open (fast-check seed ${String(SEED)}, ${String(RUNS)} keys per spot)`, () => {
  it.each(CASES)('$name', ({ schema, bodies, plan }) => {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
    let spots = 0;
    let refused = 0;
    let kept = 0;
    for (const body of bodies) {
      const valid = schema.safeParse(body);
      expect(valid.error?.issues ?? [], 'the base request is valid').toEqual([]);
      for (const path of objectPaths(body)) {
        spots++;
        const open = isMapAt(json, path);
        const obj = getAt(body, path) as object;
        fc.assert(
          fc.property(keyFor(obj), (key) => {
            const marker = `marker-${key.length.toString(36)}-${String(spots)}`;
            const input = inserted(body, path, key, marker);
            const parsed = schema.safeParse(input);
            const where = [...path, key].join('.');
            const dropped =
              parsed.success && !Object.hasOwn(getAt(parsed.data, path) as object, key);
            if (key === '__proto__' && dropped) {
              // zod never copies an own `__proto__` key of a loose object or a map into what it parses
              // (inert), and the BFF refuses any body holding one before its schema is read
              // (Fastify's onProtoPoisoning). It must not reach what is written.
              const at = getAt(parsed.data, path) as object;
              expect(Object.hasOwn(at, '__proto__'), `${where}: kept`).toBe(false);
              expect(Object.getPrototypeOf(at), `${where}: a prototype set`).toBe(Object.prototype);
              return;
            }
            if (!parsed.success) {
              const issues = requestIssues(parsed.error, input);
              expect(
                issues.map((i) => i.path),
                `${where}: refused, but not at its path: ${JSON.stringify(issues)}`,
              ).toContain(where);
              const own = issues.find((i) => i.path === where);
              expect(own?.message, where).toContain(key);
              refused++;
              return;
            }
            // Accepted: only where the schema is open, and then kept as sent.
            expect(open, `${where}: accepted, but ${path.join('.')} is no map`).toBe(true);
            const at = getAt(parsed.data, path) as Record<string, unknown>;
            expect(Object.hasOwn(at, key) && at[key], `${where}: dropped by the parse`).toBe(
              marker,
            );
            if (plan) {
              const written = JSON.stringify(plan(input).steps);
              expect(written, `${where}: not in what the plan writes`).toContain(
                `${JSON.stringify(key)}:${JSON.stringify(marker)}`,
              );
            }
            kept++;
          }),
          { seed: SEED, numRuns: RUNS },
        );
      }
    }
    console.log(
      `unknown fields (seed ${String(SEED)}): ${String(spots)} object spots, ${String(refused)} insertions refused at their path, ${String(kept)} kept in an open map`,
    );
    expect(refused).toBeGreaterThan(0);
  });

  it('the requests above reach every object spot the request schemas define (outside KubeadmConfigSpec)', () => {
    // A new object field in a request schema must be covered by a base request above.
    const missing: string[] = [];
    for (const { name, schema, bodies } of CASES) {
      const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
      const covered = new Set(
        bodies
          .flatMap((b) => objectPaths(b))
          .map((p) => p.map((s) => (typeof s === 'number' ? '[]' : s)).join('.')),
      );
      const defined = (j: Json, path: string[], out: string[]): void => {
        for (const b of [...(j.anyOf ?? []), ...(j.oneOf ?? [])]) defined(b, path, out);
        if (j.items) defined(j.items, [...path, '[]'], out);
        if (!j.properties) return;
        out.push(path.join('.'));
        if (isKubeadmSpec(path)) return;
        for (const [k, v] of Object.entries(j.properties)) defined(v, [...path, k], out);
      };
      const spots: string[] = [];
      defined(json, [], spots);
      for (const s of new Set(spots))
        if (!covered.has(s)) missing.push(`${name}: ${s || '(root)'}`);
    }
    expect(missing).toEqual([]);
  });
});
