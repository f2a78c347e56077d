import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer, type KubeObject } from '@dcs/apiserver';
import {
  CreateIpPoolRequestSchema,
  CreatePoolRequestSchema,
  defaultBootstrapSpec,
  planCreateIpPool,
  planCreatePool,
  planUpgrade,
  UpgradeRequestSchema,
  type CreatePoolRequestInput,
  type PlanStep,
} from '@dcs/domain';
import {
  aBootstrapTemplate,
  aMachineDeployment,
  aMachineTemplate,
  aValidationContext,
  anIpEntry,
} from '@dcs/domain/testing';
import { kindRegistrations } from '../embedded';
import { seeded, type Random } from '../logic/random';

/**
 * Issue 11, "a contract test against the reference CRDs": every object the create-pool planner
 * writes, for requests drawn at random (fixed seed, printed) from what the request schema accepts,
 * is accepted by the Cluster API schemas of the reference CRDs (served by the embedded server,
 * checked path by path against the reference in reference.test.ts and for the same verdicts in
 * parity.test.ts) and by this project's DCS CRDs, and loses no field to pruning: a field the real
 * server does not know would be dropped silently there.
 * Also the objects the IP-pool and upgrade planners create (new pools, template clones). Limit:
 * their patch steps (scale, targeted delete, version switches, IP-pool edits, delete pool) are
 * dry-run by the operations tests of the BFF, not drawn at random here.
 */

const SEED = Number(process.env.CAPI_CONTRACT_SEED ?? 11);
const CASES = Number(process.env.CAPI_CONTRACT_CASES ?? 150);

let server: ApiServer;
beforeAll(async () => {
  server = await startApiServer({
    tls: false,
    kinds: kindRegistrations(),
    namespaces: ['cpaas-system'],
  });
});
afterAll(async () => {
  await server.close();
});

function request(r: Random, i: number): CreatePoolRequestInput {
  const name = `pool-${r.string(4)}-${String(i)}`;
  const version = r.pick(['1.33.4', 'v1.34.1', 'v1.35.0']) ?? 'v1.34.1';
  const entries = Array.from({ length: r.int(1, 4) }, (_, n) =>
    anIpEntry(n + 20, {
      hostname: `${name}-${String(n)}`,
      ...(r.next() < 0.3
        ? {
            persistentDisk: [
              {
                slot: 0,
                quantityGB: r.int(10, 500),
                datastoreClusterName: 'ds-cluster-1',
                path: '/var/cpaas',
                format: 'xfs',
              },
            ],
          }
        : {}),
    }),
  );
  const intOrPercent = () => (r.next() < 0.5 ? r.int(0, 3) : `${String(r.int(0, 100))}%`);
  return {
    name,
    replicas: r.int(0, 20),
    version,
    machineTemplate: {
      mode: 'new',
      name: `${name}-template`,
      spec: {
        vmTemplateName: `alauda-os-k8s-${version.startsWith('v') ? version : `v${version}`}`,
        location: { type: 'folder', name: 'k8s-workers' },
        vmConfig: {
          dcsMachineCpuSpec: { quantity: r.int(1, 32) },
          dcsMachineMemorySpec: { quantity: r.int(1, 64) * 1024 },
          dcsMachineDiskSpec: [
            { quantity: 0, datastoreClusterName: 'ds-cluster-1', systemVolume: true },
            {
              quantity: r.int(50, 500),
              datastoreClusterName: 'ds-cluster-1',
              path: '/var/lib/kubelet',
              format: 'xfs',
            },
          ],
        },
      },
    },
    bootstrap: {
      mode: 'new',
      name: `${name}-kct`,
      spec: defaultBootstrapSpec({ version, sshAuthorizedKeys: ['ssh-ed25519 AAAA k'] }),
    },
    ipPool: { mode: 'new', name: `${name}-ippool`, entries },
    strategy: {
      maxSurge: intOrPercent(),
      maxUnavailable: intOrPercent(),
      ...(r.next() < 0.5
        ? { deletePolicy: r.pick(['Random', 'Newest', 'Oldest'] as const) ?? 'Random' }
        : {}),
    },
    ...(r.next() < 0.5
      ? { nodeDrainTimeout: r.pick(['0s', '90s', '1m', '1h30m', '2h']) ?? '1m' }
      : {}),
    ...(r.next() < 0.3 ? { nodeDeletionTimeout: r.pick(['10s', '5m']) ?? '5m' } : {}),
    ...(r.next() < 0.3 ? { nodeVolumeDetachTimeout: r.pick(['0s', '3m']) ?? '3m' } : {}),
  };
}

/** The paths of `a` that `b` lacks (what the server pruned). */
function lostPaths(a: unknown, b: unknown, path = ''): string[] {
  if (typeof a !== 'object' || a === null) return [];
  if (typeof b !== 'object' || b === null) return [path];
  const out: string[] = [];
  for (const [k, v] of Object.entries(a)) {
    if (path === '' && k === 'metadata') continue;
    const w = (b as Record<string, unknown>)[k];
    if (w === undefined && v !== undefined) out.push(`${path}.${k}`);
    else out.push(...lostPaths(v, w, `${path}.${k}`));
  }
  return out;
}

describe(`every object the create-pool planner writes is one real Cluster API accepts (seed ${String(SEED)})`, () => {
  it('O-CREATE-POOL: each create step passes the reference schemas and the DCS CRDs, nothing pruned', async () => {
    process.stdout.write(`capi contract: seed ${String(SEED)}, ${String(CASES)} requests\n`);
    const r = seeded(SEED, 'capi-contract');
    const ctx = aValidationContext({ namespace: 'cpaas-system' });
    let planned = 0;
    const kinds = new Set<string>();
    for (let i = 0; i < CASES; i++) {
      const parsed = CreatePoolRequestSchema.safeParse(request(r, i));
      if (!parsed.success) continue;
      const plan = planCreatePool(parsed.data, {}, ctx);
      const creates = plan.steps.filter(
        (s): s is Extract<PlanStep, { verb: 'create' }> => s.verb === 'create',
      );
      if (creates.length === 0) continue;
      planned++;
      for (const step of creates) {
        const body = step.body as unknown as KubeObject;
        kinds.add(body.kind);
        let stored: KubeObject;
        try {
          stored = await server.client.create(structuredClone(body), { dryRun: true });
        } catch (e) {
          throw new Error(
            `seed ${String(SEED)} request ${String(i)}: ${body.kind} refused: ${e instanceof Error ? e.message : String(e)}\n${JSON.stringify(body)}`,
            { cause: e },
          );
        }
        expect(lostPaths(body, stored), `${body.kind} of request ${String(i)}`).toEqual([]);
      }
    }
    expect(planned).toBeGreaterThan(CASES / 2);
    expect([...kinds].sort()).toEqual([
      'DCSIpHostnamePool',
      'DCSMachineTemplate',
      'KubeadmConfigTemplate',
      'MachineDeployment',
    ]);
  }, 120_000);
});

/** The create steps of a plan, dry-run against the server: accepted, nothing pruned. */
async function acceptsCreates(plan: { steps: PlanStep[] }, label: string): Promise<string[]> {
  const kinds: string[] = [];
  for (const step of plan.steps) {
    if (step.verb !== 'create') continue;
    const body = step.body as unknown as KubeObject;
    kinds.push(body.kind);
    let stored: KubeObject;
    try {
      stored = await server.client.create(structuredClone(body), { dryRun: true });
    } catch (e) {
      throw new Error(
        `seed ${String(SEED)} ${label}: ${body.kind} refused: ${e instanceof Error ? e.message : String(e)}\n${JSON.stringify(body)}`,
        { cause: e },
      );
    }
    expect(lostPaths(body, stored), `${body.kind} of ${label}`).toEqual([]);
  }
  return kinds;
}

describe(`the objects other planners create are ones the reference schemas accept (seed ${String(SEED)})`, () => {
  it('O-CREATE-IP-POOL and O-UPGRADE-INFRA / O-UPGRADE-K8S / O-UPDATE-BOOTSTRAP: new pools and template clones pass, nothing pruned', async () => {
    const r = seeded(SEED, 'capi-contract-others');
    const ctx = aValidationContext({ namespace: 'cpaas-system' });
    const current = {
      machineDeployment: aMachineDeployment(),
      machineTemplate: aMachineTemplate(),
      bootstrapTemplate: aBootstrapTemplate(),
    };
    const kinds = new Set<string>();
    const cases = Math.max(10, Math.floor(CASES / 5));
    for (let i = 0; i < cases; i++) {
      const base = request(r, i);
      const ip = CreateIpPoolRequestSchema.safeParse({
        name: `${base.name}-ip`,
        entries: base.ipPool.mode === 'new' ? base.ipPool.entries : [],
      });
      if (ip.success) {
        for (const k of await acceptsCreates(
          planCreateIpPool(ip.data, ctx),
          `ip pool ${String(i)}`,
        ))
          kinds.add(k);
      }
      const spec = base.machineTemplate.mode === 'new' ? base.machineTemplate.spec : undefined;
      const bootstrap = base.bootstrap.mode === 'new' ? base.bootstrap.spec : undefined;
      const version = r.pick(['v1.33.4', 'v1.34.1']) ?? 'v1.33.4';
      const upgrades = [
        {
          operation: 'infrastructure',
          resourceVersion: '1',
          machineTemplate: { name: `${base.name}-infra`, spec },
        },
        {
          operation: 'kubernetes',
          resourceVersion: '1',
          version,
          machineTemplate: {
            name: `${base.name}-k8s`,
            spec: { ...spec, vmTemplateName: `alauda-os-k8s-${version}` },
          },
          bootstrap: {
            name: `${base.name}-kct-k8s`,
            spec: defaultBootstrapSpec({ version, sshAuthorizedKeys: [] }),
          },
        },
        {
          operation: 'bootstrap',
          resourceVersion: '1',
          bootstrap: { name: `${base.name}-kct-b`, spec: bootstrap },
        },
      ];
      for (const u of upgrades) {
        const parsed = UpgradeRequestSchema.safeParse(u);
        if (!parsed.success) continue;
        const plan = planUpgrade(parsed.data, current, ctx);
        for (const k of await acceptsCreates(plan, `${u.operation} ${String(i)}`)) kinds.add(k);
      }
    }
    expect([...kinds].sort()).toEqual([
      'DCSIpHostnamePool',
      'DCSMachineTemplate',
      'KubeadmConfigTemplate',
    ]);
  }, 120_000);
});
