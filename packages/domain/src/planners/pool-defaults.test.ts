import { describe, expect, it } from 'vitest';
import { CreatePoolRequestSchema } from '../requests';
import { validateCreatePool } from '../rules/validators';
import type { ValidationContext } from '../rules/context';
import type { DCSMachineSpec, IpPoolEntry } from '../schemas/dcs';
import { aMachineTemplate, aValidationContext, anIpEntry } from '../testing';
import { clusterPoolLayout, createPoolDefaults, suggestNewPoolEntries } from './pool-defaults';

/** A machine template spec like the builders', with `cpu` cores, on `pool`, maybe mounting /var/cpaas. */
function spec(pool: string, cpu: number, legacyCpaas = false): DCSMachineSpec {
  const base = aMachineTemplate().spec?.template.spec;
  if (!base) throw new Error('the builder has a spec');
  const s = structuredClone(base);
  s.ipHostPoolRef = { name: pool };
  if (s.vmConfig) {
    s.vmConfig.dcsMachineCpuSpec = { quantity: cpu };
    if (legacyCpaas) {
      s.vmConfig.dcsMachineDiskSpec = [
        ...(s.vmConfig.dcsMachineDiskSpec ?? []),
        { quantity: 60, datastoreClusterName: 'ds-legacy', path: '/var/cpaas', format: 'ext4' },
      ];
    }
  }
  return s;
}

function pool(name: string, entries: IpPoolEntry[]): ValidationContext['ipPools'][number] {
  return { name, resourceVersion: '1', entries, claims: [], consumers: [] };
}

const withoutDisk = (e: IpPoolEntry): IpPoolEntry => {
  const { persistentDisk: _d, ...rest } = e;
  return rest;
};

/** Cluster `demo` with pools a, b (8 cores, NICs) and c (2 cores); cluster `zz` with a legacy pool last by name. */
function twoClusters(providerVersion = '1.0.16'): ValidationContext {
  const nic = (n: number) => ({
    ip: `192.168.20.${10 + n}`,
    mask: '24',
    dvSwitchName: 'dvs-storage',
    portGroupName: 'pg-storage',
  });
  const ipA = [1, 2].map((n) => anIpEntry(n, { additionNic: [nic(n)] }));
  const ipB = [3, 4].map((n) => anIpEntry(n, { additionNic: [nic(n)] }));
  const ipC = [5].map((n) => anIpEntry(n));
  const ipZ = [1].map((n) => withoutDisk(anIpEntry(n, { ip: '10.9.9.11', gateway: '10.9.9.1' })));
  return aValidationContext({
    providerVersion,
    controlPlaneVersion: 'v1.34.1',
    ipPools: [pool('a-ip', ipA), pool('b-ip', ipB), pool('c-ip', ipC), pool('zz-ip', ipZ)],
    machineTemplates: [
      { name: 'a-tpl', spec: spec('a-ip', 8) },
      { name: 'b-tpl', spec: spec('b-ip', 8) },
      { name: 'c-tpl', spec: spec('c-ip', 2) },
      { name: 'zz-tpl', spec: spec('zz-ip', 16, true) },
    ],
    workerPools: [
      { name: 'b', machineTemplate: 'b-tpl' },
      { name: 'c', machineTemplate: 'c-tpl' },
      { name: 'a', machineTemplate: 'a-tpl' },
    ],
  });
}

const mounts = (s: { vmConfig?: { dcsMachineDiskSpec?: { path?: string }[] } }) =>
  (s.vmConfig?.dcsMachineDiskSpec ?? []).flatMap((d) => (d.path ? [d.path] : []));

describe('O-CREATE-POOL defaults: the cluster’s own most common layout (issue 11)', () => {
  it('O-CREATE-POOL: takes the layout most of the cluster’s pools share, never another cluster’s template', () => {
    const ctx = twoClusters();
    const layout = clusterPoolLayout(ctx);
    expect(layout.from).toEqual(['a', 'b']);
    expect(layout.template.vmConfig?.dcsMachineCpuSpec?.quantity).toBe(8);
    expect(mounts(layout.template)).not.toContain('/var/cpaas');
    expect(layout.entry?.additionNic?.map((n) => n.portGroupName)).toEqual(['pg-storage']);
    const d = createPoolDefaults(ctx);
    expect(d.machineTemplate).toMatchObject({
      mode: 'new',
      spec: {
        vmTemplateName: 'alauda-os-k8s-v1.34.1',
        vmConfig: { dcsMachineCpuSpec: { quantity: 8 } },
      },
    });
  });

  it('O-CREATE-POOL: a tie goes to the layout of the pool first by name', () => {
    const ctx = twoClusters();
    const layout = clusterPoolLayout({
      ...ctx,
      workerPools: [
        { name: 'c', machineTemplate: 'c-tpl' },
        { name: 'b', machineTemplate: 'b-tpl' },
      ],
    });
    expect(layout.from).toEqual(['b']);
  });

  it('R-DISK-5: a legacy layout moves /var/cpaas to the entries’ persistent disks with provider ≥ 1.0.16', () => {
    const ctx = twoClusters();
    const layout = clusterPoolLayout({
      ...ctx,
      workerPools: [{ name: 'zz', machineTemplate: 'zz-tpl' }],
    });
    expect(mounts(layout.template)).toEqual(['/var/lib/kubelet', '/var/lib/containerd']);
    expect(layout.entry?.persistentDisk).toEqual([
      {
        slot: 0,
        quantityGB: 60,
        datastoreClusterName: 'ds-legacy',
        path: '/var/cpaas',
        format: 'ext4',
      },
    ]);
  });

  it('R-VER-2 / R-DISK-5: below provider 1.0.16 the template mounts /var/cpaas and entries carry no disk', () => {
    const layout = clusterPoolLayout(twoClusters('1.0.15'));
    expect(mounts(layout.template)).toContain('/var/cpaas');
    expect(layout.entry?.persistentDisk).toBeUndefined();
  });

  it('O-CREATE-POOL: a cluster without worker pools gets the documents’ defaults, clean once the user gives an address', () => {
    const ctx = { ...twoClusters(), workerPools: [] };
    const layout = clusterPoolLayout(ctx);
    expect(layout.from).toEqual([]);
    expect(layout.template.vmConfig?.dcsMachineCpuSpec?.quantity).toBe(4);
    const d = createPoolDefaults(ctx);
    const [entry] = suggestNewPoolEntries(ctx, d.name, 1);
    expect(entry).toMatchObject({
      ip: '',
      hostname: 'demo-worker-1-1',
      machineName: 'demo-worker-1-vm-1',
    });
    const req = CreatePoolRequestSchema.parse({
      ...d,
      ipPool: { ...d.ipPool, entries: [{ ...entry, ip: '10.7.0.11', gateway: '10.7.0.1' }] },
    });
    expect(validateCreatePool(req, ctx)).toEqual([]);
  });

  it('O-CREATE-POOL, R-POOL-2: suggested entries follow the layout’s NICs and disks on addresses no pool holds', () => {
    const ctx = twoClusters();
    const d = createPoolDefaults(ctx);
    const entries = suggestNewPoolEntries(ctx, d.name, 2);
    const held = new Set(
      ctx.ipPools.flatMap((p) =>
        p.entries.flatMap((e) => [e.ip, ...(e.additionNic ?? []).map((n) => n.ip)]),
      ),
    );
    for (const e of entries) {
      expect(held.has(e.ip)).toBe(false);
      expect(e.additionNic?.map((n) => [n.dvSwitchName, n.portGroupName])).toEqual([
        ['dvs-storage', 'pg-storage'],
      ]);
      for (const n of e.additionNic ?? []) expect(held.has(n.ip)).toBe(false);
      expect(e.persistentDisk?.map((p) => p.path)).toEqual(['/var/cpaas']);
    }
    expect(entries.map((e) => e.hostname)).toEqual(['demo-worker-1-1', 'demo-worker-1-2']);
    const req = CreatePoolRequestSchema.parse({
      ...d,
      replicas: 2,
      ipPool: { ...d.ipPool, entries },
    });
    expect(validateCreatePool(req, ctx)).toEqual([]);
  });
});
