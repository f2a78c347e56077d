import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startApiServer,
  type ApiServer,
  type JSONSchemaProps,
  type KubeObject as ServerObject,
} from '@dcs/apiserver';
import {
  applyStep,
  copyForCreate,
  CreateIpPoolRequestSchema,
  CreatePoolRequestSchema,
  defaultBootstrapSpec,
  DeletePoolRequestSchema,
  EditStrategyRequestSchema,
  KUBELET_PATCH_PATH,
  KUBEADM_CONFIG_SPEC_FIELDS,
  PatchIpPoolRequestSchema,
  RestartRequestSchema,
  planCreateIpPool,
  planCreatePool,
  planDeletePool,
  planEditStrategy,
  planPatchIpPool,
  planRestart,
  planScale,
  planUpgrade,
  ScaleRequestSchema,
  UpgradeRequestSchema,
  type DCSIpHostnamePool,
  type IpPoolEntry,
  type PersistentDisk as PersistentDiskInput,
  type KubeObject,
  type Plan,
  type ValidationContext,
} from '@dcs/domain';
import {
  aBootstrapTemplate,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineTemplate,
  anIpEntry,
  anIpPool,
  aValidationContext,
  KUBELET_PATCH_1_34,
} from '@dcs/domain/testing';
import { kindRegistrations } from '../embedded';
import {
  DOMAIN_DCS_SCHEMAS,
  errorsOf,
  findReferenceDir,
  forAjv,
  goTypeProblems,
  kubeAjv,
  leafPaths,
  metadataProblems,
  readServedVersions,
  schemaAt,
  undeclaredPaths,
} from '../../test/support/capi-oracle';

/**
 * Issue 11, "a contract test against the reference CRDs": every object any planner writes is one
 * a real management cluster accepts. Requests are drawn by fast-check (fixed seed, printed) over
 * what the request schemas let through, against base objects made with `@dcs/domain/testing`'s
 * builders. A plan the rules refuse (an error issue) is never executed and is only counted; every
 * other plan is played step by step (`applyStep`: JSON and merge patches applied to the base, each
 * `test` op checked), and every object a step or a step's undo leaves behind is judged:
 *
 * - Cluster API kinds: by Ajv on the served version's openAPIV3Schema of upstream's CRD files,
 *   read from `shared/reference/capi-crds/` at test time (never the project's generated copy);
 *   nothing the schema does not declare (pruning would drop it silently); the durations,
 *   int-or-percent values and ObjectMeta that the API server and Cluster API's webhooks check.
 * - DCS kinds (DCSIpHostnamePool, DCSMachineTemplate): upstream has no CRD for them. They are
 *   judged by the CRDs the simulator serves (Ajv, nothing pruned) and by DOMAIN.md §1's fields
 *   (`DOMAIN_DCS_SCHEMAS`: formats, required values, no field the documents do not name).
 * - The first cases of each planner are also dry-run against the embedded API server (created as
 *   new objects): accepted, nothing pruned.
 *
 * A failure prints the seed, the planner, the step and every problem; fast-check shrinks it.
 * `CAPI_CONTRACT_SEED`, `CAPI_CONTRACT_RUNS` change the seed and the runs per planner.
 */

const SEED = Number(process.env.CAPI_CONTRACT_SEED ?? 20261211);
const RUNS = Number(process.env.CAPI_CONTRACT_RUNS ?? 200);
/** Cases per planner also dry-run against the embedded server (slower: an HTTP round trip each). */
const SERVER_CASES = Number(process.env.CAPI_CONTRACT_SERVER_CASES ?? 15);

const referenceDir = findReferenceDir();
if (!referenceDir) {
  throw new Error(
    'the reference Cluster API CRDs were not found: put them in shared/reference/capi-crds/ beside ' +
      'the repository (or a parent folder of it), or name the folder in CAPI_REFERENCE_CRDS',
  );
}
const reference = readServedVersions(referenceDir);
const ajv = kubeAjv();
const referenceByApi = new Map(
  reference.map((r) => [`${r.group}/${r.version}/${r.kind}`, r] as const),
);
const compiled = new Map(reference.map((r) => [r, ajv.compile(forAjv(r.schema))] as const));
const served = new Map(kindRegistrations('v1.10').map((r) => [r.kind, r] as const));
const DCS_KINDS = ['DCSIpHostnamePool', 'DCSMachineTemplate'] as const;
type DcsKind = (typeof DCS_KINDS)[number];
const isDcsKind = (k: string): k is DcsKind => (DCS_KINDS as readonly string[]).includes(k);
const dcsServed = new Map(
  DCS_KINDS.map((k) => {
    const schema = served.get(k)?.openAPIV3Schema;
    if (!schema) throw new Error(`the simulator serves no ${k}`);
    return [k, { schema, validate: ajv.compile(forAjv(schema)) }] as const;
  }),
);
const dcsDomain = new Map(DCS_KINDS.map((k) => [k, ajv.compile(DOMAIN_DCS_SCHEMAS[k])] as const));

/** Every problem a real cluster (or the DCS documents) would have with `obj`, as one list. */
function problemsOf(obj: KubeObject): string[] {
  const [group, version] = obj.apiVersion.split('/');
  const out: string[] = [...metadataProblems(obj), ...goTypeProblems(obj)];
  const judge = (label: string, validate: (o: unknown) => boolean, text: () => string) => {
    // Defaults are applied to a copy, as the API server does before it validates.
    if (!validate(structuredClone(obj))) out.push(`${label}: ${text()}`);
  };
  if (isDcsKind(obj.kind)) {
    const own = dcsServed.get(obj.kind);
    const domain = dcsDomain.get(obj.kind);
    if (!own || !domain) throw new Error(obj.kind);
    judge('served DCS CRD', own.validate, () => errorsOf(ajv, own.validate));
    judge('DOMAIN.md §1', domain, () => errorsOf(ajv, domain));
    out.push(...undeclaredPaths(own.schema, obj).map((p) => `pruned by the served CRD: ${p}`));
  } else {
    const ref = referenceByApi.get(`${group ?? ''}/${version ?? ''}/${obj.kind}`);
    const validate = ref && compiled.get(ref);
    if (!ref || !validate)
      return [...out, `${obj.apiVersion} ${obj.kind}: no served reference CRD`];
    judge(`reference ${ref.file}`, validate, () => errorsOf(ajv, validate));
    out.push(...undeclaredPaths(ref.schema, obj).map((p) => `pruned by the reference: ${p}`));
  }
  return out;
}

/** The leaf paths (indices as `[]`) each kind's written objects carry, for the served≡reference check. */
const writtenPaths = new Map<string, Set<string>>();

const key = (kind: string, ns: string | undefined, name: string | undefined) =>
  `${kind}/${ns ?? ''}/${name ?? ''}`;

/** One object a plan writes, with where it comes from. */
interface Written {
  label: string;
  object: KubeObject;
}

/**
 * Plays the plan's steps over `base` as the API server would (tests checked), and returns every
 * object a step or an undo writes. An undo is played against the state its step left (a later
 * step failed). A delete writes nothing; its target and options are checked here.
 */
function playPlan(plan: Plan, base: readonly KubeObject[]): Written[] {
  const state = new Map(base.map((o) => [key(o.kind, o.metadata.namespace, o.metadata.name), o]));
  const out: Written[] = [];
  plan.steps.forEach((step, i) => {
    const k = key(step.kind, step.namespace, step.name);
    const label = `step ${String(i)} (${step.verb} ${step.kind} ${step.name})`;
    if (step.verb === 'delete') {
      const problems = [
        ...(served.has(step.kind) ? [] : [`kind ${step.kind} is not served`]),
        ...(step.propagationPolicy === undefined ||
        ['Foreground', 'Background', 'Orphan'].includes(step.propagationPolicy)
          ? []
          : [`propagationPolicy ${step.propagationPolicy}`]),
        ...(step.waitFor && !served.has(step.waitFor.kind)
          ? [`waitFor kind ${step.waitFor.kind}`]
          : []),
        ...(state.has(k) ? [] : ['deletes an object that is not there']),
      ];
      if (problems.length) throw new Error(`${label}: ${problems.join('; ')}`);
    }
    const after = applyStep(state.get(k), step);
    if (after) {
      out.push({ label, object: after });
      state.set(k, after);
    } else state.delete(k);
    const undo = step.undo;
    if (undo?.verb === 'patch' && after) {
      const undone = applyStep(after, undo);
      if (undone) out.push({ label: `undo of ${label}`, object: undone });
    }
  });
  return out;
}

/** What a plan writes, judged; throws with every problem. Also dry-runs it when asked. */
async function judgePlan(
  name: string,
  plan: Plan,
  base: readonly KubeObject[],
  dryRun: boolean,
  check: (object: KubeObject) => string[] = () => [],
): Promise<void> {
  const written = playPlan(plan, base);
  const problems = written.flatMap(({ label, object }) =>
    [...problemsOf(object), ...check(object)].map((p) => `${label}: ${p}`),
  );
  if (problems.length) {
    throw new Error(
      `seed ${String(SEED)} ${name}: ${problems.join('\n')}\n${JSON.stringify(written.map((w) => w.object))}`,
    );
  }
  for (const { object } of written) {
    let paths = writtenPaths.get(object.kind);
    if (!paths) writtenPaths.set(object.kind, (paths = new Set()));
    for (const p of leafPaths(object.spec)) paths.add(`.spec${p.replace(/\[\d+\]/g, '[]')}`);
  }
  if (!dryRun) return;
  for (const { label, object } of written) {
    const body = copyForCreate(object, object.metadata.name ?? '');
    let stored: KubeObject;
    try {
      stored = (await server.client.create(structuredClone(body) as ServerObject, {
        dryRun: true,
      })) as KubeObject;
    } catch (e) {
      throw new Error(
        `seed ${String(SEED)} ${name} ${label}: the embedded server refuses what the reference accepts: ${e instanceof Error ? e.message : String(e)}\n${JSON.stringify(body)}`,
        { cause: e },
      );
    }
    const lost = lostPaths(body, stored);
    if (lost.length) throw new Error(`${name} ${label}: the embedded server pruned ${lost.join()}`);
  }
}

/** The paths of `a` that `b` lacks (what the server pruned). */
function lostPaths(a: unknown, b: unknown, path = ''): string[] {
  if (typeof a !== 'object' || a === null) return [];
  if (typeof b !== 'object' || b === null) return [path];
  return Object.entries(a).flatMap(([k, v]) => {
    if (path === '' && k === 'metadata') return [];
    const w = (b as Record<string, unknown>)[k];
    return w === undefined && v !== undefined ? [`${path}.${k}`] : lostPaths(v, w, `${path}.${k}`);
  });
}

let server: ApiServer;
beforeAll(async () => {
  server = await startApiServer({
    tls: false,
    kinds: kindRegistrations('v1.10'),
    namespaces: ['cpaas-system'],
  });
});
afterAll(async () => {
  await server.close();
});

/**
 * R-BOOT-1 on a KubeadmControlPlane as written: an inline kubelet patch carries
 * `imagePullCredentialsVerificationPolicy: NeverVerify` from Kubernetes 1.35 on and not before;
 * from 1.35 a kubelet patch must be there at all. (A patch kept in a Secret is judged by the
 * rules against the Secret; the object cannot tell.)
 */
function kubeletPatchProblems(object: KubeObject): string[] {
  if (object.kind !== 'KubeadmControlPlane') return [];
  const spec = object.spec as {
    version?: string;
    kubeadmConfigSpec?: { files?: { path?: string; content?: string; contentFrom?: unknown }[] };
  };
  const minor = Number(/^v?1\.(\d+)\./.exec(spec.version ?? '')?.[1] ?? NaN);
  const file = spec.kubeadmConfigSpec?.files?.find((f) => f.path === KUBELET_PATCH_PATH);
  if (!file) return minor >= 35 ? [`${spec.version ?? ''}: no kubelet patch (R-BOOT-1)`] : [];
  if (file.content === undefined) return [];
  let policy: unknown;
  try {
    policy = (JSON.parse(file.content) as Record<string, unknown>)
      .imagePullCredentialsVerificationPolicy;
  } catch {
    return [`kubelet patch is not JSON: ${file.content}`];
  }
  if (minor >= 35 && policy !== 'NeverVerify') {
    return [`${spec.version ?? ''}: kubelet patch without NeverVerify (R-BOOT-1)`];
  }
  if (minor < 35 && policy !== undefined) {
    return [
      `${spec.version ?? ''}: kubelet patch sets imagePullCredentialsVerificationPolicy (R-BOOT-1)`,
    ];
  }
  return [];
}

// --- arbitraries: requests as the forms and kubectl-happy clients may send them ------------------

const VERSIONS = ['v1.32.8', 'v1.33.4', '1.34.1', 'v1.34.1', 'v1.35.0'] as const;

/**
 * Mostly `valid`, now and then (1 in 40) one of `invalid`: with some twenty fields to a request,
 * about half the requests carry one fault for the schema or the rules to refuse, the other half
 * reach a plan that writes.
 */
function mostly<T>(valid: fc.Arbitrary<T>, ...invalid: T[]): fc.Arbitrary<T> {
  return invalid.length
    ? fc.oneof(
        { weight: 40, arbitrary: valid },
        { weight: 1, arbitrary: fc.constantFrom(...invalid) },
      )
    : valid;
}
const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

const duration = mostly(
  fc.constantFrom('0', '0s', '90s', '1m', '1h30m', '2h', '1.5h', '500ms'),
  'soon',
  '-1m',
  '',
  '1',
);
const intOrPercent = mostly<number | string>(
  fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom('0%', '25%', '100%')),
  -1,
  '1',
  'x%',
);
const name = mostly(
  fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/),
  'Bad_Name',
  'a.b',
  'x'.repeat(70),
  '-a',
  'demo-md-0',
);
const ip = (n: number) => `10.0.1.${String(10 + n)}`;

/** An extra NIC: usually complete, now and then with a value left empty or out. */
const nic = fc.record(
  {
    ip: mostly(fc.constantFrom('192.168.10.20', '192.168.10.21', ' 192.168.10.22'), ''),
    mask: mostly(fc.constantFrom('24', '16'), ''),
    gateway: mostly(fc.constant('192.168.10.1'), ''),
    dns: fc.constantFrom('192.168.10.2', '192.168.10.2,192.168.10.3'),
    dvSwitchName: mostly(fc.constant('dvs-storage'), ''),
    portGroupName: mostly(fc.constant('pg-storage'), ''),
  },
  { requiredKeys: ['dvSwitchName', 'portGroupName'] },
);
const disk = (slot: number, path: fc.Arbitrary<string>) =>
  fc.record(
    {
      slot: fc.constant(slot),
      quantityGB: mostly(fc.integer({ min: 1, max: 500 }), 0),
      datastoreClusterName: fc.constantFrom('ds-cluster-1', 'ds-cluster-2'),
      path,
      format: mostly(fc.constant('xfs'), 'ext4'),
      isThin: fc.boolean(),
      pciType: fc.constantFrom('VIRTIO', 'SCSI'),
    },
    { requiredKeys: ['slot', 'quantityGB', 'datastoreClusterName', 'path'] },
  );
const data = fc.constantFrom('/data', '/var/log');
const cpaas = fc.constant('/var/cpaas');

/**
 * Persistent disks of an entry (R-DISK-5): with `/var/cpaas` at slot 0 when the pool holds it
 * (provider ≥ 1.0.16), else only data disks; now and then two disks on one slot (R-DISK-1).
 */
const disks = (cpaasOnPool: boolean) =>
  mostly<readonly PersistentDiskInput[] | undefined>(
    cpaasOnPool
      ? fc.oneof(fc.tuple(disk(0, cpaas)), fc.tuple(disk(0, cpaas), disk(1, data)))
      : optional(fc.tuple(disk(0, data))),
    [
      { slot: 0, quantityGB: 40, datastoreClusterName: 'ds-cluster-1', path: '/var/cpaas' },
      { slot: 0, quantityGB: 20, datastoreClusterName: 'ds-cluster-1', path: '/data' },
    ],
  );

/** Entry `n` (anIpEntry) with its optional parts varied. */
function entry(n: number, cpaasOnPool: boolean): fc.Arbitrary<IpPoolEntry> {
  return fc
    .record({
      mask: mostly(fc.constantFrom('24', ' 24'), '255.255.255.0', '33'),
      dns: optional(mostly(fc.constantFrom('10.0.0.2', '10.0.0.2, 10.0.0.3', ''), 'x')),
      hostname: optional(mostly(fc.constantFrom(`worker-node-${String(n)}`, ''), 'Bad_Host')),
      machineName: optional(mostly(fc.constant(`worker-vm-${String(n)}`), '')),
      additionNic: optional(fc.array(nic, { maxLength: 2 })),
      persistentDisk: disks(cpaasOnPool),
    })
    .map((o) => {
      const { persistentDisk: _d, dns: _n, hostname: _h, machineName: _m, ...base } = anIpEntry(n);
      return {
        ...base,
        mask: o.mask,
        ...(o.dns === undefined ? {} : { dns: o.dns }),
        ...(o.hostname === undefined ? {} : { hostname: o.hostname }),
        ...(o.machineName === undefined ? {} : { machineName: o.machineName }),
        ...(o.additionNic === undefined ? {} : { additionNic: o.additionNic }),
        ...(o.persistentDisk === undefined ? {} : { persistentDisk: [...o.persistentDisk] }),
      };
    });
}

/** Entries with distinct numbers from `from` on (`anIpEntry` numbering). */
const entries = (from: number, min: number, max: number, cpaasOnPool = true) =>
  fc
    .uniqueArray(fc.integer({ min: from, max: from + 30 }), { minLength: min, maxLength: max })
    .chain((ns) => fc.tuple(...ns.map((n) => entry(n, cpaasOnPool))));

/** A machine template spec (DOMAIN.md §1), sometimes outside what R-TPL-* allow. */
const machineSpec = (cpaasOnTemplate: boolean) =>
  fc
    .record({
      vmTemplate: mostly(
        fc.constantFrom(...VERSIONS.map((v) => `alauda-os-k8s-${v}`)),
        'custom',
        '',
      ),
      location: optional(
        fc.record({
          type: mostly(fc.constant('folder'), 'datacenter'),
          name: mostly(fc.constant('k8s-workers'), ''),
        }),
      ),
      resource: optional(
        fc.record({
          type: mostly(fc.constantFrom('cluster', 'host'), 'pool'),
          name: fc.constant('r1'),
        }),
      ),
      network: optional(fc.constant({ dvSwitchName: 'dvs-1', portGroupName: 'pg-1' })),
      cpu: mostly(fc.integer({ min: 1, max: 32 }), 0),
      memory: mostly(fc.constantFrom(1024, 8192, 65536), 0),
      diskGB: mostly(fc.integer({ min: 1, max: 500 }), 0),
      datastore: mostly(fc.constant('ds-cluster-1'), ''),
      cpaas: mostly(fc.constant(cpaasOnTemplate), !cpaasOnTemplate),
    })
    .map((o) => ({
      vmTemplateName: o.vmTemplate,
      ...(o.location ? { location: o.location } : {}),
      ...(o.resource ? { resource: o.resource } : {}),
      vmConfig: {
        ...o.network,
        dcsMachineCpuSpec: { quantity: o.cpu },
        dcsMachineMemorySpec: { quantity: o.memory },
        dcsMachineDiskSpec: [
          { quantity: 0, datastoreClusterName: o.datastore, systemVolume: true },
          ...['/var/lib/kubelet', '/var/lib/containerd', ...(o.cpaas ? ['/var/cpaas'] : [])].map(
            (path) => ({
              quantity: o.diskGB,
              datastoreClusterName: o.datastore,
              path,
              format: 'xfs',
            }),
          ),
        ],
      },
    }));

/** A bootstrap spec: the documents' default for a version, sometimes another version's. */
const bootstrapSpec = (version?: string) =>
  fc
    .record({
      version: version ? mostly(fc.constant(version), ...VERSIONS) : fc.constantFrom(...VERSIONS),
      keys: fc.constantFrom([], ['ssh-ed25519 AAAA k']),
      secret: fc.boolean(),
      // Now and then a field KubeadmConfigSpec does not have (a typo): the schema must refuse it.
      typo: mostly(fc.constant(false), true),
    })
    .map((o) => ({
      ...defaultBootstrapSpec({
        version: o.version,
        sshAuthorizedKeys: o.keys,
        ...(o.secret ? { filesSecret: 'dcs-kubernetes-1.33-files' } : {}),
      }),
      ...(o.typo ? { postKubeadmCommand: ['typo'] } : {}),
    }));

// --- the properties ------------------------------------------------------------------------------

interface Tally {
  schema: number;
  rules: number;
  written: number;
}

/** A request the schema refuses: the first field and message, for the printed tally. */
const refused = (e: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }) => ({
  base: [],
  refused: e.issues[0] ? `${e.issues[0].path.map(String).join('.')}: ${e.issues[0].message}` : '',
});

/**
 * Runs one planner's property: `draw` gives the request input, the base objects and the planner
 * call; a request the schema refuses and a plan the rules refuse are counted, any other plan is
 * judged. Prints the seed and the tally; at least a fifth of the runs must write something.
 */
async function property<T>(
  planner: string,
  arb: fc.Arbitrary<T>,
  run: (input: T) => {
    plan?: Plan;
    base: KubeObject[];
    refused?: string;
    /** What else must hold of each object the plan writes (beyond the schemas). */
    check?: (object: KubeObject) => string[];
  },
): Promise<void> {
  const tally: Tally = { schema: 0, rules: 0, written: 0 };
  const reasons = new Map<string, number>();
  let caseNo = 0;
  await fc.assert(
    fc.asyncProperty(arb, async (input) => {
      const { plan, base, refused: why, check } = run(input);
      if (!plan) {
        tally.schema++;
        reasons.set(`schema: ${why ?? ''}`, (reasons.get(`schema: ${why ?? ''}`) ?? 0) + 1);
        return;
      }
      const error = plan.issues.find((i) => i.severity === 'error');
      if (error || plan.steps.length === 0) {
        tally.rules++;
        const r = error
          ? `${error.rule} ${error.path}${process.env.CAPI_CONTRACT_DEBUG ? ` ${error.message}` : ''}`
          : 'no step';
        reasons.set(r, (reasons.get(r) ?? 0) + 1);
        return;
      }
      tally.written++;
      await judgePlan(planner, plan, base, caseNo++ < SERVER_CASES, check);
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: false },
  );
  process.stdout.write(
    `capi contract ${planner}: fast-check seed ${String(SEED)}, ${String(RUNS)} runs: ${String(tally.written)} plans written and judged, ${String(tally.rules)} refused by the rules, ${String(tally.schema)} by the request schema; most often: ${[
      ...reasons,
    ]
      .sort((a, b) => b[1] - a[1])
      .slice(0, process.env.CAPI_CONTRACT_DEBUG ? 30 : 4)
      .map(([r, n]) => `${r} (${String(n)})`)
      .join(', ')}\n`,
  );
  expect(tally.written, `${planner}: too few plans reach a write`).toBeGreaterThan(RUNS / 5);
}

const ctx = (o: Partial<ValidationContext> = {}) => aValidationContext(o);
/** The default context's pool, its consumers' replicas as `replicas` says. */
function poolContext(pool: DCSIpHostnamePool, replicas = 3, claimed = 3) {
  const entriesOf = pool.spec?.pool ?? [];
  return {
    name: pool.metadata.name ?? '',
    resourceVersion: pool.metadata.resourceVersion ?? '1',
    entries: entriesOf,
    claims: entriesOf.slice(0, claimed).map((e, i) => ({
      ip: e.ip,
      machine: `demo-md-0-abc12-m${String(i + 1)}`,
    })),
    consumers: [{ deployment: 'demo-md-0', replicas, maxSurge: 0 }],
  };
}

describe(`every object a planner writes is one upstream Cluster API accepts (fast-check seed ${String(SEED)}, ${String(RUNS)} runs each)`, () => {
  it('reads the reference CRDs at test time: every kind a planner writes has a served version', () => {
    process.stdout.write(
      `capi contract: reference ${referenceDir}: ${reference.map((r) => `${r.kind} ${r.version}`).join(', ')}\n`,
    );
    expect(reference.map((r) => r.kind).sort()).toEqual(
      expect.arrayContaining([
        'KubeadmConfigTemplate',
        'KubeadmControlPlane',
        'Machine',
        'MachineDeployment',
      ]),
    );
  });

  it('the KubeadmConfigSpec fields a request may write are upstream’s (KUBEADM_CONFIG_SPEC_FIELDS)', () => {
    const template = reference.find((r) => r.kind === 'KubeadmConfigTemplate')?.schema;
    const spec = template?.properties?.spec?.properties?.template?.properties?.spec;
    expect([...KUBEADM_CONFIG_SPEC_FIELDS].sort()).toEqual(
      Object.keys(spec?.properties ?? {}).sort(),
    );
  });

  it('the base objects (the builders) are valid to start with', () => {
    const kcp = aKubeadmControlPlane();
    for (const o of [
      aMachineDeployment(),
      aMachine(),
      aMachineTemplate(),
      aBootstrapTemplate(),
      kcp,
      anIpPool(),
    ]) {
      expect(problemsOf(o), o.kind).toEqual([]);
    }
  });

  it('the oracle refuses what a real cluster (or the DCS documents) would: each check can fail', () => {
    const md = aMachineDeployment();
    const kcp = aKubeadmControlPlane({ spec: { version: 'v1.35.0' } });
    if (kcp.spec) {
      kcp.spec.kubeadmConfigSpec = {
        format: 'ignition',
        files: [{ path: KUBELET_PATCH_PATH, content: KUBELET_PATCH_1_34 }],
      };
    }
    const entryWith = (o: Partial<IpPoolEntry>) =>
      anIpPool({ spec: { pool: [{ ...anIpEntry(1), ...o }] } });
    const cases: [string, KubeObject, RegExp][] = [
      [
        'a duration Go cannot parse',
        aMachineDeployment({ spec: { template: { spec: { nodeDrainTimeout: 'soon' } } } }),
        /not a Go duration/,
      ],
      [
        'a bare numeric maxSurge',
        aMachineDeployment({ spec: { strategy: { rollingUpdate: { maxSurge: '1' } } } }),
        /percentage/,
      ],
      [
        'an enum value upstream does not know',
        aMachineDeployment({ spec: { strategy: { type: 'Recreate' as 'RollingUpdate' } } }),
        /allowed values/,
      ],
      [
        'a field upstream does not declare',
        { ...md, spec: { ...md.spec, paused2: true } },
        /pruned by the reference: \.spec\.paused2/,
      ],
      [
        'a label value longer than 63',
        aMachineDeployment({ metadata: { labels: { 'pool.name': 'x'.repeat(64) } } }),
        /not a valid label value/,
      ],
      [
        'an invalid name',
        aMachineDeployment({ metadata: { name: 'Bad_Name' } }),
        /DNS-1123 subdomain/,
      ],
      ['R-BOOT-1 broken on a 1.35 control plane', kcp, /without NeverVerify/],
      [
        'an extra NIC address written empty',
        entryWith({ additionNic: [{ ip: '', dvSwitchName: 'd', portGroupName: 'p' }] }),
        /DOMAIN\.md.*additionNic\/0\/ip/,
      ],
      [
        'an extra NIC without its port group (R-NIC-1)',
        entryWith({ additionNic: [{ dvSwitchName: 'd' }] }),
        /portGroupName/,
      ],
      [
        'two disks on one slot (R-DISK-1)',
        entryWith({
          persistentDisk: [
            { slot: 0, quantityGB: 1 },
            { slot: 0, quantityGB: 2 },
          ],
        }),
        /DOMAIN\.md/,
      ],
      [
        'a location other than a folder (R-TPL-3)',
        aMachineTemplate({
          spec: { template: { spec: { location: { type: 'datacenter', name: 'x' } } } },
        }),
        /allowed values/,
      ],
      [
        'a field the DCS documents do not name',
        aMachineTemplate({ spec: { template: { spec: { vmConfig: { gpu: 1 } } } } }),
        /additional properties/,
      ],
    ];
    for (const [what, object, expected] of cases) {
      const problems = [...problemsOf(object), ...kubeletPatchProblems(object)];
      expect(problems.join('\n'), what).toMatch(expected);
    }
  });

  it('regression (issue 11): an empty hostname or extra-NIC value is not written as ""', async () => {
    // fast-check's counterexamples, shrunk: both planned clean and wrote "" before the fix.
    const created = CreateIpPoolRequestSchema.parse({
      name: 'a0',
      entries: [{ ip: '10.0.1.14', mask: '24', gateway: '10.0.1.1', hostname: '' }],
    });
    const plan = planCreateIpPool(created, ctx());
    expect(plan.issues.filter((i) => i.severity === 'error')).toEqual([]);
    await judgePlan('regression create', plan, [], true);
    const pool = anIpPool({ entries: 2 });
    const edit = PatchIpPoolRequestSchema.parse({
      resourceVersion: '1',
      update: [
        {
          ip: '10.0.1.12',
          additionNic: [{ mask: '', dvSwitchName: 'dvs-storage', portGroupName: 'pg-storage' }],
        },
      ],
    });
    const edited = planPatchIpPool(
      'demo-worker-pool',
      edit,
      pool,
      ctx({ ipPools: [poolContext(pool, 0, 0)] }),
    );
    expect(edited.issues.filter((i) => i.severity === 'error')).toEqual([]);
    await judgePlan('regression edit', edited, [pool], true);
  });

  it('O-CREATE-POOL: a new pool, on a new or an existing IP pool, new or existing templates', async () => {
    // R-DISK-5: `/var/cpaas` on the pool's entries or on the template, never both nor neither;
    // the existing pool and template of the builders have it on the pool.
    const arb = fc
      .record({
        existingPool: fc.boolean(),
        cpaasOnPool: fc.boolean(),
        version: fc.constantFrom(...VERSIONS),
      })
      .chain(({ existingPool, cpaasOnPool, version }) => {
        const onPool = existingPool || cpaasOnPool;
        // The builders' templates are made for v1.33.4 (R-MD-4, R-BOOT-1).
        const existing = version === 'v1.33.4' ? fc.boolean() : mostly(fc.constant(false), true);
        return fc.record({
          name,
          replicas: fc.integer({ min: 0, max: 6 }),
          tooMany: mostly(fc.constant(false), true),
          version: fc.constant(version),
          existingTemplate: onPool ? existing : fc.constant(false),
          existingBootstrap: existing,
          existingPool: fc.constant(existingPool),
          entries: entries(4, 1, 6, onPool),
          spec: machineSpec(!onPool),
          bootstrap: bootstrapSpec(version),
          // R-MD-3: a pool with persistent disks keeps maxSurge 0.
          maxSurge: onPool ? mostly(fc.constantFrom(0, '0%'), 1) : intOrPercent,
          maxUnavailable: intOrPercent,
          deletePolicy: optional(fc.constantFrom('Random', 'Newest', 'Oldest')),
          drain: optional(duration),
          deletion: optional(duration),
          detach: optional(duration),
        });
      });
    await property('O-CREATE-POOL', arb, (o) => {
      const pool = anIpPool();
      // R-MD-4: the VM template the catalog names for the version (the form sets it so).
      const vmTemplateName = `alauda-os-k8s-v${o.version.replace(/^v/, '')}`;
      const parsed = CreatePoolRequestSchema.safeParse({
        name: o.name,
        // R-MD-1: at most the free entries, now and then one more.
        replicas: o.tooMany ? o.entries.length + 1 : Math.min(o.replicas, o.entries.length),
        version: o.version,
        machineTemplate: o.existingTemplate
          ? { mode: 'existing', name: 'demo-md-0-template' }
          : { mode: 'new', name: `${o.name}-template`, spec: { ...o.spec, vmTemplateName } },
        bootstrap: o.existingBootstrap
          ? { mode: 'existing', name: 'demo-md-0-kct' }
          : { mode: 'new', name: `${o.name}-kct`, spec: o.bootstrap },
        ipPool: o.existingPool
          ? { mode: 'existing', name: 'demo-worker-pool', resourceVersion: '1', append: o.entries }
          : { mode: 'new', name: `${o.name}-ippool`, entries: o.entries },
        strategy: {
          maxSurge: o.maxSurge,
          maxUnavailable: o.maxUnavailable,
          ...(o.deletePolicy ? { deletePolicy: o.deletePolicy } : {}),
        },
        ...(o.drain === undefined ? {} : { nodeDrainTimeout: o.drain }),
        ...(o.deletion === undefined ? {} : { nodeDeletionTimeout: o.deletion }),
        ...(o.detach === undefined ? {} : { nodeVolumeDetachTimeout: o.detach }),
      });
      if (!parsed.success) return refused(parsed.error);
      return {
        // A control plane at the newest version: every worker version is within the skew (R-MD-4).
        plan: planCreatePool(
          parsed.data,
          { ipPool: pool },
          ctx({ controlPlaneVersion: 'v1.35.0' }),
        ),
        base: [pool],
      };
    });
  }, 120_000);

  it('O-CREATE-IP-POOL: a standalone pool', async () => {
    await property('O-CREATE-IP-POOL', fc.record({ name, entries: entries(4, 1, 6) }), (o) => {
      const parsed = CreateIpPoolRequestSchema.safeParse(o);
      if (!parsed.success) return refused(parsed.error);
      return { plan: planCreateIpPool(parsed.data, ctx()), base: [] };
    });
  }, 120_000);

  it('O-SCALE-UP / O-SCALE-DOWN-RANDOM: replicas, with the IP pool extended first when asked', async () => {
    const arb = fc.record({
      from: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
      to: fc.integer({ min: -1, max: 8 }),
      append: optional(entries(4, 1, 5)),
    });
    await property('O-SCALE', arb, (o) => {
      const md = aMachineDeployment();
      // `replicas` unset: Cluster API's default (1) applies and the patch adds the field.
      if (o.from === undefined && md.spec) delete md.spec.replicas;
      else if (md.spec) md.spec.replicas = o.from ?? 1;
      const pool = anIpPool();
      const parsed = ScaleRequestSchema.safeParse({
        replicas: o.to,
        resourceVersion: '1',
        ...(o.append
          ? { ipPoolAppend: { name: 'demo-worker-pool', resourceVersion: '1', entries: o.append } }
          : {}),
      });
      if (!parsed.success) return refused(parsed.error);
      const c = ctx({ ipPools: [poolContext(pool, o.from ?? 1, Math.min(3, o.from ?? 1))] });
      return {
        plan: planScale(parsed.data, { machineDeployment: md, ipPool: pool }, c),
        base: [md, pool],
      };
    });
  }, 120_000);

  it('O-SCALE-DOWN-TARGETED: the delete-machine annotation on the chosen machines, then replicas (R-MD-6)', async () => {
    const arb = fc.integer({ min: 1, max: 5 }).chain((machines) =>
      fc.record({
        machines: fc.constant(machines),
        // The pool's machines, now and then one that is not (R-MD-6 refuses it).
        chosen: fc.uniqueArray(mostly(fc.integer({ min: 0, max: machines - 1 }), 7), {
          minLength: 1,
          maxLength: machines,
        }),
        annotated: fc.constantFrom(undefined, 'true', 'yes'),
        missingVersion: mostly(fc.constant(false), true),
      }),
    );
    await property('O-SCALE-DOWN-TARGETED', arb, (o) => {
      const n = o.machines;
      const md = aMachineDeployment({
        spec: { replicas: n },
        status: { replicas: n, readyReplicas: n, updatedReplicas: n, availableReplicas: n },
      });
      const machines = Array.from({ length: o.machines }, (_, i) =>
        aMachine({
          metadata: {
            name: `demo-md-0-abc12-m${String(i)}`,
            ...(o.annotated && i === 0
              ? { annotations: { 'cluster.x-k8s.io/delete-machine': o.annotated } }
              : {}),
          },
        }),
      );
      const names = o.chosen.map((i) => `demo-md-0-abc12-m${String(i)}`);
      const parsed = ScaleRequestSchema.safeParse({
        deleteMachines: names,
        resourceVersion: '1',
        machineResourceVersions: Object.fromEntries(
          (o.missingVersion ? names.slice(1) : names).map((n) => [n, '1']),
        ),
      });
      if (!parsed.success) return refused(parsed.error);
      return {
        plan: planScale(parsed.data, { machineDeployment: md, machines }, ctx()),
        base: [md, ...machines],
      };
    });
  }, 120_000);

  it('O-UPGRADE-INFRA, O-UPDATE-BOOTSTRAP, O-UPGRADE-K8S: a new template, then the reference switch', async () => {
    const arb = fc.record({
      operation: fc.constantFrom('infrastructure', 'bootstrap', 'kubernetes'),
      version: fc.constantFrom(...VERSIONS),
      controlPlane: fc.constantFrom('v1.33.4', 'v1.34.1', 'v1.35.0'),
      mtName: name,
      btName: name,
      spec: machineSpec(false),
      bootstrap: bootstrapSpec(),
      withBootstrap: fc.boolean(),
      unsetVersion: fc.boolean(),
    });
    await property('O-UPGRADE-WORKERS', arb, (o) => {
      const md = aMachineDeployment();
      if (o.unsetVersion && md.spec) delete md.spec.template.spec.version;
      const mt = aMachineTemplate();
      const bt = aBootstrapTemplate();
      const req =
        o.operation === 'infrastructure'
          ? {
              operation: o.operation,
              resourceVersion: '1',
              machineTemplate: { name: o.mtName, spec: o.spec },
            }
          : o.operation === 'bootstrap'
            ? {
                operation: o.operation,
                resourceVersion: '1',
                bootstrap: { name: o.btName, spec: o.bootstrap },
              }
            : {
                operation: o.operation,
                resourceVersion: '1',
                version: o.version,
                machineTemplate: { name: o.mtName, spec: o.spec },
                ...(o.withBootstrap ? { bootstrap: { name: o.btName, spec: o.bootstrap } } : {}),
              };
      const parsed = UpgradeRequestSchema.safeParse(req);
      if (!parsed.success) return refused(parsed.error);
      return {
        plan: planUpgrade(
          parsed.data,
          { machineDeployment: md, machineTemplate: mt, bootstrapTemplate: bt },
          ctx({ controlPlaneVersion: o.controlPlane }),
        ),
        base: [md, mt, bt],
      };
    });
  }, 120_000);

  it('O-UPGRADE-CP: a new machine template, then version, template and the kubelet patch (R-BOOT-1) of the KubeadmControlPlane', async () => {
    const kubeadm = fc.constantFrom(
      'format only',
      'kubelet patch 1.34',
      'patch in a secret',
      'join and init configuration',
    );
    // The control plane moves one minor version at a time: mostly the next one, 1.35 included.
    const arb = fc.constantFrom('v1.33.4', 'v1.34.1').chain((from) =>
      fc.record({
        from: fc.constant(from),
        version: mostly(fc.constant(from === 'v1.33.4' ? 'v1.34.1' : 'v1.35.0'), ...VERSIONS),
        mtName: name,
        spec: machineSpec(false),
        kubeadm,
      }),
    );
    await property('O-UPGRADE-CP', arb, (o) => {
      const file = {
        path: KUBELET_PATCH_PATH,
        owner: 'root:root',
        permissions: '0644',
        content: KUBELET_PATCH_1_34,
      };
      const spec =
        o.kubeadm === 'format only'
          ? { format: 'ignition' as const }
          : o.kubeadm === 'kubelet patch 1.34'
            ? { format: 'ignition' as const, files: [file] }
            : o.kubeadm === 'patch in a secret'
              ? {
                  format: 'ignition' as const,
                  files: [
                    {
                      path: KUBELET_PATCH_PATH,
                      contentFrom: {
                        secret: { name: 'dcs-kubernetes-1.33-files', key: 'kubelet.json' },
                      },
                    },
                  ],
                }
              : {
                  format: 'ignition' as const,
                  files: [file],
                  initConfiguration: { patches: { directory: '/etc/kubernetes/patches' } },
                  joinConfiguration: { patches: { directory: '/etc/kubernetes/patches' } },
                };
      const kcp = aKubeadmControlPlane({ spec: { version: o.from } });
      if (kcp.spec) kcp.spec.kubeadmConfigSpec = spec;
      const mt = aMachineTemplate({ metadata: { name: 'demo-control-plane-template' } });
      const parsed = UpgradeRequestSchema.safeParse({
        operation: 'control-plane',
        resourceVersion: '1',
        version: o.version,
        machineTemplate: { name: o.mtName, spec: o.spec },
      });
      if (!parsed.success) return refused(parsed.error);
      const c = ctx({
        controlPlaneVersion: o.from,
        machineTemplates: [
          ...ctx().machineTemplates,
          {
            name: 'demo-control-plane-template',
            spec: mt.spec?.template.spec ?? { vmTemplateName: '', ipHostPoolRef: { name: '' } },
          },
        ],
      });
      return {
        plan: planUpgrade(parsed.data, { kubeadmControlPlane: kcp, machineTemplate: mt }, c),
        base: [kcp, mt],
        check: kubeletPatchProblems,
      };
    });
  }, 120_000);

  it('O-EDIT-IP-POOL: appends, entry edits (update[].set, NICs, disks) and removals (R-POOL-4..6)', async () => {
    /** The builders' `/var/cpaas` disk of every entry, its size changed or not (R-DISK-4). */
    const CPAAS_DISK = {
      slot: 0,
      quantityGB: 40,
      datastoreClusterName: 'ds-cluster-1',
      path: '/var/cpaas',
      format: 'xfs',
    };
    const keptCpaas = fc
      .integer({ min: 40, max: 80 })
      .map((q) => ({ ...CPAAS_DISK, quantityGB: q }));
    /** An edit of entry `n`: its own fields only when it is unclaimed (R-POOL-5), mostly. */
    const update = (n: number, unclaimed: boolean) =>
      fc.record(
        {
          ip: fc.constant(ip(n)),
          set: unclaimed
            ? fc.record(
                {
                  ip: optional(mostly(fc.constantFrom(ip(n + 40), ip(n)), '10.0.1.300', '')),
                  mask: optional(mostly(fc.constantFrom('24', '16'), '')),
                  gateway: optional(mostly(fc.constantFrom('10.0.1.1', '10.0.1.254'), '')),
                  dns: optional(fc.constantFrom('10.0.0.2', '', '10.0.0.3,10.0.0.4')),
                  hostname: optional(
                    mostly(fc.constantFrom(`edited-${String(n)}`, ''), 'Bad_Host'),
                  ),
                  machineName: optional(fc.constantFrom(`edited-vm-${String(n)}`, '')),
                },
                { requiredKeys: [] },
              )
            : mostly(fc.constant({}), { hostname: 'claimed-renamed' }),
          additionNic: optional(fc.array(nic, { maxLength: 2 })),
          persistentDisk: optional(
            mostly<readonly PersistentDiskInput[]>(
              fc.oneof(fc.tuple(keptCpaas), fc.tuple(keptCpaas, disk(1, data))),
              [{ ...CPAAS_DISK, format: 'ext4' }],
            ),
          ),
        },
        { requiredKeys: ['ip', 'set'] },
      );
    const arb = fc
      .record({ size: fc.integer({ min: 1, max: 5 }), claimed: fc.integer({ min: 0, max: 4 }) })
      .chain(({ size, claimed }) => {
        const c = Math.min(size - 1, claimed);
        const free = fc.integer({ min: c + 1, max: size });
        return fc.record({
          size: fc.constant(size),
          claimed: fc.constant(c),
          nics: fc.boolean(),
          append: optional(entries(10, 1, 3)),
          // Entries to remove: unclaimed ones (R-POOL-6), now and then one that is not there.
          remove: fc.uniqueArray(mostly(free, 9), { maxLength: 2 }),
          updates: fc
            .uniqueArray(mostly(fc.integer({ min: 1, max: size }), 9), { maxLength: 3 })
            .chain((ns) => fc.tuple(...ns.map((n) => update(n, n > c)))),
        });
      });
    await property('O-EDIT-IP-POOL', arb, (o) => {
      const pool = anIpPool({ entries: o.size });
      if (o.nics && pool.spec?.pool?.[0]) {
        pool.spec.pool[0].additionNic = [
          {
            ip: '192.168.10.11',
            mask: '24',
            dvSwitchName: 'dvs-storage',
            portGroupName: 'pg-storage',
          },
        ];
      }
      const parsed = PatchIpPoolRequestSchema.safeParse({
        resourceVersion: '1',
        ...(o.append ? { append: o.append } : {}),
        remove: o.remove.map(ip),
        update: o.updates.map(({ persistentDisk, ...u }) => ({
          ...u,
          ...(persistentDisk ? { persistentDisk: [...persistentDisk] } : {}),
        })),
      });
      if (!parsed.success) return refused(parsed.error);
      const c = ctx({ ipPools: [poolContext(pool, o.claimed, o.claimed)] });
      return { plan: planPatchIpPool('demo-worker-pool', parsed.data, pool, c), base: [pool] };
    });
  }, 120_000);

  it('O-DELETE-POOL: the MachineDeployment, then what only it used', async () => {
    const arb = fc.record({
      removeMachineTemplate: fc.boolean(),
      removeBootstrapTemplate: fc.boolean(),
      removeIpPool: fc.boolean(),
      sharedTemplate: fc.boolean(),
    });
    await property('O-DELETE-POOL', arb, (o) => {
      const md = aMachineDeployment();
      const mt = aMachineTemplate();
      const bt = aBootstrapTemplate();
      const pool = anIpPool();
      const other = aMachineDeployment({ metadata: { name: 'demo-md-9' } });
      // The request's own fields only: `sharedTemplate` shapes the cluster, not the request.
      const { sharedTemplate: _shared, ...flags } = o;
      const parsed = DeletePoolRequestSchema.safeParse({ resourceVersion: '1', ...flags });
      if (!parsed.success) return refused(parsed.error);
      const c = ctx({ ipPools: [{ ...poolContext(pool), claims: [] }] });
      const plan = planDeletePool(
        parsed.data,
        {
          machineDeployment: md,
          machines: [],
          machineDeployments: o.sharedTemplate ? [md, other] : [md],
          kubeadmControlPlanes: [],
          machineTemplate: mt,
          bootstrapTemplate: bt,
          ipPool: pool,
        },
        c,
      );
      return { plan, base: [md, mt, bt, pool, other] };
    });
  }, 120_000);

  it('O-EDIT-STRATEGY: rollout settings and node timeouts of an existing pool', async () => {
    const arb = fc.record({
      shape: fc.constantFrom('full', 'no rollingUpdate', 'no strategy', 'no timeouts'),
      maxSurge: fc.option(intOrPercent, { nil: undefined }),
      maxUnavailable: fc.option(intOrPercent, { nil: undefined }),
      nodeDrainTimeout: fc.option(duration, { nil: undefined }),
      nodeDeletionTimeout: fc.option(duration, { nil: undefined }),
      nodeVolumeDetachTimeout: fc.option(duration, { nil: undefined }),
    });
    await property('O-EDIT-STRATEGY', arb, ({ shape, ...fields }) => {
      const md = aMachineDeployment();
      const spec = md.spec;
      if (spec && shape === 'no rollingUpdate' && spec.strategy) delete spec.strategy.rollingUpdate;
      if (spec && shape === 'no strategy') delete spec.strategy;
      if (spec && shape === 'no timeouts') {
        delete spec.template.spec.nodeDrainTimeout;
        delete spec.template.spec.nodeDeletionTimeout;
      }
      const parsed = EditStrategyRequestSchema.safeParse({
        resourceVersion: '1',
        ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
      });
      if (!parsed.success) return refused(parsed.error);
      // No IP pool with persistent disks behind this pool: R-MD-3 would refuse any surge.
      const c = ctx({ ipPools: [] });
      return { plan: planEditStrategy(parsed.data, { machineDeployment: md }, c), base: [md] };
    });
  }, 120_000);

  it('O-RESTART: rolloutAfter of a worker pool or of the control plane, now or at a time', async () => {
    const now = new Date('2026-03-01T10:00:00Z');
    const time = fc
      .integer({ min: -3600, max: 30 * 86_400 })
      .map((s) => new Date(now.getTime() + s * 1000).toISOString().replace('.000Z', 'Z'));
    const arb = fc.record({
      target: fc.constantFrom('worker', 'control-plane'),
      at: fc.option(fc.oneof(time, fc.constantFrom('soon', '2026-03-02T06:00:00+08:00')), {
        nil: undefined,
      }),
      existing: fc.option(time, { nil: undefined }),
    });
    await property('O-RESTART', arb, ({ target, at, existing }) => {
      const object =
        target === 'worker'
          ? aMachineDeployment(existing ? { spec: { rolloutAfter: existing } } : {})
          : aKubeadmControlPlane(existing ? { spec: { rolloutAfter: existing } } : {});
      const parsed = RestartRequestSchema.safeParse({
        resourceVersion: '1',
        ...(at !== undefined ? { at } : {}),
      });
      if (!parsed.success) return refused(parsed.error);
      // A settled pool: its three machines, older than any time drawn here.
      const machines = [1, 2, 3].map((n) =>
        aMachine({
          metadata: { name: `m${String(n)}`, creationTimestamp: '2026-01-01T00:00:00Z' },
        }),
      );
      const c = ctx({ ipPools: [] });
      return {
        plan: planRestart(parsed.data, { target: object, machines }, c, now),
        base: [object],
      };
    });
  }, 120_000);

  it('the embedded server serves, at every path a planner writes, the reference schema’s own constraints', () => {
    const own = (s: JSONSchemaProps | undefined) =>
      s &&
      JSON.stringify(
        Object.entries(s)
          .filter(
            ([k]) => !['description', 'properties', 'items', 'additionalProperties'].includes(k),
          )
          .sort(([a], [b]) => (a < b ? -1 : 1)),
      );
    let compared = 0;
    for (const [kind, paths] of writtenPaths) {
      if (isDcsKind(kind)) continue;
      const ref = reference.find((r) => r.kind === kind);
      const srv = served.get(kind)?.openAPIV3Schema;
      expect(ref && srv, kind).toBeTruthy();
      if (!ref || !srv) continue;
      for (const path of paths) {
        const parts = path.match(/\.[^.[]+|\[\]/g) ?? [];
        for (let i = 1; i <= parts.length; i++) {
          const prefix = parts.slice(0, i).join('').replace(/\[\]/g, '[0]');
          expect(own(schemaAt(srv, prefix)), `${kind} ${prefix}`).toBe(
            own(schemaAt(ref.schema, prefix)),
          );
          compared++;
        }
      }
    }
    process.stdout.write(
      `capi contract: ${String(compared)} written paths compared, served against reference\n`,
    );
    expect([...writtenPaths.keys()].sort()).toEqual([
      'DCSIpHostnamePool',
      'DCSMachineTemplate',
      'KubeadmConfigTemplate',
      'KubeadmControlPlane',
      'Machine',
      'MachineDeployment',
    ]);
  });
});
