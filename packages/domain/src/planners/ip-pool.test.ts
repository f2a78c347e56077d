import { describe, expect, it } from 'vitest';
import {
  CreateIpPoolRequestSchema,
  PatchIpPoolRequestSchema,
  type PatchIpPoolRequest,
} from '../requests';
import type { DCSIpHostnamePool, IpPoolEntry } from '../schemas/dcs';
import { anIpEntry, anIpPool, aValidationContext } from '../testing';
import { applyJsonPatch, tryApplyJsonPatch, type JsonPatchOp } from './json-patch';
import { planCreateIpPool, planPatchIpPool } from './ip-pool';
import { applySteps } from './objects';
import { canExecute, type PatchStep, type Plan } from './plan';

/**
 * Five entries; 1–3 claimed by demo-md-0. Entry 2 carries a second disk and isThin on both,
 * entry 3 an extra NIC: what a blind merge patch would have to copy exactly.
 */
function pool(): DCSIpHostnamePool {
  const p = anIpPool({ metadata: { name: 'demo-worker-pool', resourceVersion: '41' }, entries: 5 });
  const entries = p.spec?.pool ?? [];
  entries[1] = anIpEntry(2, {
    persistentDisk: [
      {
        slot: 0,
        quantityGB: 40,
        datastoreClusterName: 'ds-cluster-1',
        path: '/var/cpaas',
        format: 'xfs',
        isThin: true,
      },
      {
        slot: 1,
        quantityGB: 10,
        datastoreClusterName: 'ds-cluster-2',
        path: '/data',
        format: 'ext4',
        isThin: false,
      },
    ],
  });
  entries[2] = anIpEntry(3, {
    additionNic: [{ ip: '192.168.0.13', mask: '24', dvSwitchName: 'dvs-2', portGroupName: 'pg-2' }],
  });
  return p;
}

const base = aValidationContext();
const ctx = aValidationContext({
  ipPools: [
    {
      ...(base.ipPools[0] ?? { name: '', claims: [], consumers: [] }),
      resourceVersion: '41',
      entries: pool().spec?.pool ?? [],
    },
  ],
});

const req = (o: Partial<PatchIpPoolRequest>): PatchIpPoolRequest =>
  PatchIpPoolRequestSchema.parse({ resourceVersion: '41', ...o });

function opsOf(plan: Plan): JsonPatchOp[] {
  const step = plan.steps[0];
  if (step?.verb !== 'patch' || step.patch.type !== 'json') throw new Error('not a JSON patch');
  return step.patch.ops;
}

const entriesAfter = (plan: Plan, p = pool()): IpPoolEntry[] =>
  (applySteps([p], plan.steps)[0] as DCSIpHostnamePool).spec?.pool ?? [];

describe('planCreateIpPool', () => {
  it('O-CREATE-IP-POOL: creates the pool with the entries as given, undone by deleting it', () => {
    const entries = [
      anIpEntry(7),
      anIpEntry(8, { persistentDisk: [{ slot: 0, quantityGB: 40, isThin: true }] }),
    ];
    const plan = planCreateIpPool({ name: 'demo-extra-ippool', entries }, ctx);
    expect(plan.operation).toBe('O-CREATE-IP-POOL');
    expect(plan.steps).toHaveLength(1);
    const step = plan.steps[0];
    expect(step?.verb).toBe('create');
    if (step?.verb !== 'create') return;
    expect(step.body).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'DCSIpHostnamePool',
      metadata: { name: 'demo-extra-ippool', namespace: 'cpaas-system' },
      spec: { pool: entries },
    });
    expect(step.undo).toMatchObject({
      verb: 'delete',
      kind: 'DCSIpHostnamePool',
      name: 'demo-extra-ippool',
      precondition: { uidFromCreate: true },
    });
    expect(plan.kubectl[0]).toMatch(/^kubectl create -f - <<'EOF'\n\{/);
    expect(canExecute(plan)).toBe(true);
  });

  it('O-CREATE-IP-POOL: carries the rules’ results (R-MD-5: the name must be free)', () => {
    const plan = planCreateIpPool({ name: 'demo-worker-pool', entries: [anIpEntry(7)] }, ctx);
    expect(plan.issues.some((i) => i.severity === 'error' && i.path === 'name')).toBe(true);
    expect(canExecute(plan)).toBe(false);
  });
});

describe('planPatchIpPool', () => {
  it('R-POOL-4: appending entries never sends a merge patch of spec.pool', () => {
    const plan = planPatchIpPool(
      'demo-worker-pool',
      req({ append: [anIpEntry(6), anIpEntry(7)] }),
      pool(),
      ctx,
    );
    expect(plan.operation).toBe('O-EDIT-IP-POOL');
    expect(plan.steps).toHaveLength(1);
    const step = plan.steps[0] as PatchStep;
    expect(step.patch.type).toBe('json');
    expect(opsOf(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '41' },
      { op: 'add', path: '/spec/pool/-', value: anIpEntry(6) },
      { op: 'add', path: '/spec/pool/-', value: anIpEntry(7) },
    ]);
    // No op ever writes the list, or anything above it, as a whole.
    expect(opsOf(plan).filter((o) => o.op !== 'test' && /^\/spec(\/pool)?$/.test(o.path))).toEqual(
      [],
    );
    expect(plan.kubectl[0]).toContain('--type json');
    expect(plan.kubectl[0]).not.toContain('--type merge');
  });

  it('R-POOL-4: existing entries, every persistentDisk block and its isThin, are carried over exactly', () => {
    const before = pool();
    const plan = planPatchIpPool('demo-worker-pool', req({ append: [anIpEntry(6)] }), before, ctx);
    const after = entriesAfter(plan, before);
    expect(after).toHaveLength(6);
    (before.spec?.pool ?? []).forEach((e, i) => {
      expect(JSON.stringify(after[i])).toBe(JSON.stringify(e));
    });
  });

  it('R-POOL-6: removes unclaimed entries by index, each after a test of its ip, highest index first', () => {
    const plan = planPatchIpPool(
      'demo-worker-pool',
      req({ remove: ['10.0.1.14', '10.0.1.15'] }),
      pool(),
      ctx,
    );
    expect(opsOf(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '41' },
      { op: 'test', path: '/spec/pool/4/ip', value: '10.0.1.15' },
      { op: 'remove', path: '/spec/pool/4' },
      { op: 'test', path: '/spec/pool/3/ip', value: '10.0.1.14' },
      { op: 'remove', path: '/spec/pool/3' },
    ]);
    expect(entriesAfter(plan)).toEqual((pool().spec?.pool ?? []).slice(0, 3));
    // R-POOL-6: the volumes of the removed entries' disks stay on DCS.
    expect(plan.effects.notes?.map((n) => n.messageKey)).toContain('plan.effect.volumesKept');
    expect(plan.steps[0]?.description.message).toBe(
      'Edit IP pool demo-worker-pool: 0 appended, 2 removed, 0 updated (existing entries kept as they are)',
    );
  });

  it('R-POOL-4: a removal whose index now holds another entry fails instead of removing the wrong one', () => {
    const plan = planPatchIpPool('demo-worker-pool', req({ remove: ['10.0.1.14'] }), pool(), ctx);
    const shifted = pool();
    shifted.spec?.pool?.splice(0, 1);
    const ops = opsOf(plan).filter((o) => o.path !== '/metadata/resourceVersion');
    const r = tryApplyJsonPatch(shifted, ops);
    expect(r.ok ? undefined : r.error.code).toBe('TEST_FAILED');
  });

  it('R-POOL-5: removing a claimed entry is refused by the rules', () => {
    const plan = planPatchIpPool('demo-worker-pool', req({ remove: ['10.0.1.11'] }), pool(), ctx);
    expect(plan.issues.some((i) => i.rule === 'R-POOL-5' && i.severity === 'error')).toBe(true);
    expect(canExecute(plan)).toBe(false);
  });

  it('R-DISK-2: persistent disks are appended, never removed; the rest of the entry stays exactly', () => {
    const plan = planPatchIpPool(
      'demo-worker-pool',
      req({
        update: [
          {
            ip: '10.0.1.12',
            // slot 1 left out, slot 0 without its isThin: both stay as they are.
            persistentDisk: [
              {
                slot: 0,
                quantityGB: 40,
                datastoreClusterName: 'ds-cluster-1',
                path: '/var/cpaas',
                format: 'xfs',
              },
              {
                slot: 2,
                quantityGB: 20,
                datastoreClusterName: 'ds-cluster-1',
                path: '/logs',
                format: 'xfs',
              },
            ],
          },
        ],
      }),
      pool(),
      ctx,
    );
    expect(opsOf(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '41' },
      { op: 'test', path: '/spec/pool/1/ip', value: '10.0.1.12' },
      {
        op: 'add',
        path: '/spec/pool/1/persistentDisk/-',
        value: {
          slot: 2,
          quantityGB: 20,
          datastoreClusterName: 'ds-cluster-1',
          path: '/logs',
          format: 'xfs',
        },
      },
    ]);
    const disks = entriesAfter(plan)[1]?.persistentDisk ?? [];
    expect(disks.map((d) => [d.slot, d.isThin])).toEqual([
      [0, true],
      [1, false],
      [2, undefined],
    ]);
    // R-DISK-6: the appended disk of a claimed entry is attached but not mounted until replaced.
    expect(plan.effects.notes?.map((n) => n.messageKey)).toContain(
      'plan.effect.diskAttachedNotMounted',
    );
  });

  it('R-DISK-4: a changed quantityGB is patched field by field behind a test of the disk’s slot', () => {
    const plan = planPatchIpPool(
      'demo-worker-pool',
      req({ update: [{ ip: '10.0.1.12', persistentDisk: [{ slot: 1, quantityGB: 30 }] }] }),
      pool(),
      ctx,
    );
    expect(opsOf(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '41' },
      { op: 'test', path: '/spec/pool/1/ip', value: '10.0.1.12' },
      { op: 'test', path: '/spec/pool/1/persistentDisk/1/slot', value: 1 },
      { op: 'add', path: '/spec/pool/1/persistentDisk/1/quantityGB', value: 30 },
    ]);
    const disk = entriesAfter(plan)[1]?.persistentDisk?.[1];
    expect(disk).toEqual({
      slot: 1,
      quantityGB: 30,
      datastoreClusterName: 'ds-cluster-2',
      path: '/data',
      format: 'ext4',
      isThin: false,
    });
  });

  it('R-NIC-2: extra NICs of an entry are replaced behind a test of its ip, with the not-hot-updated note', () => {
    const nics = [{ ip: '192.168.0.23', mask: '24', dvSwitchName: 'dvs-2', portGroupName: 'pg-3' }];
    const plan = planPatchIpPool(
      'demo-worker-pool',
      req({ update: [{ ip: '10.0.1.13', additionNic: nics }] }),
      pool(),
      ctx,
    );
    expect(opsOf(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '41' },
      { op: 'test', path: '/spec/pool/2/ip', value: '10.0.1.13' },
      { op: 'add', path: '/spec/pool/2/additionNic', value: nics },
    ]);
    expect(entriesAfter(plan)[2]?.additionNic).toEqual(nics);
    expect(plan.effects.notes?.map((n) => n.messageKey)).toContain('plan.effect.nicNotHotUpdated');

    const cleared = planPatchIpPool(
      'demo-worker-pool',
      req({ update: [{ ip: '10.0.1.13', additionNic: [] }] }),
      pool(),
      ctx,
    );
    expect(opsOf(cleared).slice(1)).toEqual([
      { op: 'test', path: '/spec/pool/2/ip', value: '10.0.1.13' },
      { op: 'remove', path: '/spec/pool/2/additionNic' },
    ]);
  });

  it('O-EDIT-IP-POOL: NICs and disks of one entry change behind a single test of its ip', () => {
    const nics = [{ ip: '192.168.0.22', mask: '24', dvSwitchName: 'dvs-2', portGroupName: 'pg-2' }];
    const plan = planPatchIpPool(
      'demo-worker-pool',
      req({
        update: [
          { ip: '10.0.1.12', additionNic: nics, persistentDisk: [{ slot: 4, quantityGB: 5 }] },
        ],
      }),
      pool(),
      ctx,
    );
    expect(opsOf(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '41' },
      { op: 'test', path: '/spec/pool/1/ip', value: '10.0.1.12' },
      { op: 'add', path: '/spec/pool/1/additionNic', value: nics },
      { op: 'add', path: '/spec/pool/1/persistentDisk/-', value: { slot: 4, quantityGB: 5 } },
    ]);
  });

  it('O-EDIT-IP-POOL: updates, removals and appends in one patch, indices taken before any removal', () => {
    const plan = planPatchIpPool(
      'demo-worker-pool',
      req({
        append: [anIpEntry(6)],
        remove: ['10.0.1.14'],
        update: [
          {
            ip: '10.0.1.15',
            additionNic: [
              { ip: '192.168.0.15', mask: '24', dvSwitchName: 'dvs-2', portGroupName: 'pg-2' },
            ],
          },
        ],
      }),
      pool(),
      ctx,
    );
    expect(opsOf(plan).map((o) => `${o.op} ${o.path}`)).toEqual([
      'test /metadata/resourceVersion',
      'test /spec/pool/4/ip',
      'add /spec/pool/4/additionNic',
      'test /spec/pool/3/ip',
      'remove /spec/pool/3',
      'add /spec/pool/-',
    ]);
    expect(entriesAfter(plan).map((e) => [e.ip, e.additionNic?.length ?? 0])).toEqual([
      ['10.0.1.11', 0],
      ['10.0.1.12', 0],
      ['10.0.1.13', 1],
      ['10.0.1.15', 1],
      ['10.0.1.16', 0],
    ]);
  });

  it('O-EDIT-IP-POOL: the undo restores the pool exactly, guarded by tests of what was written', () => {
    const before = pool();
    const plan = planPatchIpPool(
      'demo-worker-pool',
      req({
        append: [anIpEntry(6)],
        remove: ['10.0.1.14'],
        update: [
          {
            ip: '10.0.1.12',
            persistentDisk: [
              { slot: 1, quantityGB: 30 },
              { slot: 3, quantityGB: 5 },
            ],
          },
        ],
      }),
      before,
      ctx,
    );
    const step = plan.steps[0] as PatchStep;
    expect(step.undo?.patch.type).toBe('json');
    const undoOps = step.undo?.patch.type === 'json' ? step.undo.patch.ops : [];
    expect(undoOps[0]).toEqual({ op: 'test', path: '/spec/pool/4/ip', value: '10.0.1.16' });
    const after = applySteps([before], [step]);
    expect(applySteps(after, step.undo ? [step.undo] : [])).toEqual([before]);
  });

  it('R-POOL-4: a pool changed since it was loaded is edited as it is now, with a warning', () => {
    const now = pool();
    now.metadata.resourceVersion = '44';
    now.spec?.pool?.push(anIpEntry(9));
    const plan = planPatchIpPool('demo-worker-pool', req({ append: [anIpEntry(6)] }), now, ctx);
    expect(plan.issues).toContainEqual(
      expect.objectContaining({
        rule: 'R-POOL-4',
        severity: 'warning',
        messageKey: 'plan.issue.poolChanged',
        path: 'resourceVersion',
      }),
    );
    expect(opsOf(plan)[0]).toEqual({ op: 'test', path: '/metadata/resourceVersion', value: '44' });
    expect(
      entriesAfter(plan, now)
        .map((e) => e.ip)
        .slice(-2),
    ).toEqual(['10.0.1.19', '10.0.1.16']);
    // The preview shows exactly what the patch adds to the current pool.
    expect(plan.diffs[0]?.changes).toEqual([
      { path: '/spec/pool/6', change: 'add', after: anIpEntry(6) },
    ]);
  });

  it('O-EDIT-IP-POOL: an ip that is not in the pool is an error, and nothing changes without an edit', () => {
    const plan = planPatchIpPool('demo-worker-pool', req({ remove: ['10.9.9.9'] }), pool(), ctx);
    expect(plan.issues.filter((i) => i.severity === 'error').map((i) => i.path)).toContain(
      'remove.0',
    );
    expect(plan.steps).toEqual([]);
    expect(planPatchIpPool('demo-worker-pool', req({}), pool(), ctx).steps).toEqual([]);
  });

  it('O-EDIT-IP-POOL: the kubectl command sends the same ops', () => {
    const plan = planPatchIpPool('demo-worker-pool', req({ remove: ['10.0.1.15'] }), pool(), ctx);
    expect(plan.kubectl).toEqual([
      `kubectl patch dcsiphostnamepool demo-worker-pool -n cpaas-system --type json -p '${JSON.stringify(opsOf(plan))}'`,
    ]);
    expect(applyJsonPatch(pool(), opsOf(plan)).spec?.pool).toHaveLength(4);
  });
});

describe('an optional value left empty is not written (issue 11: R-POOL-3, R-NIC-1)', () => {
  // Found by the contract test (packages/simulator/src/capi/contract.test.ts): these planned
  // clean and wrote `hostname: ""` and `additionNic[0].mask: ""` into the DCSIpHostnamePool.
  const blank = {
    ...anIpEntry(7),
    hostname: '',
    dns: '',
    additionNic: [{ ip: '', mask: '', gateway: '', dvSwitchName: 'dvs-2', portGroupName: 'pg-2' }],
  };
  const { hostname: _h, dns: _d, ...written } = anIpEntry(7);
  const expected = { ...written, additionNic: [{ dvSwitchName: 'dvs-2', portGroupName: 'pg-2' }] };

  it('O-CREATE-IP-POOL: the new pool has no "" for dns, hostname or a NIC address', () => {
    const plan = planCreateIpPool(
      CreateIpPoolRequestSchema.parse({ name: 'p7', entries: [blank] }),
      aValidationContext(),
    );
    expect(canExecute(plan)).toBe(true);
    const step = plan.steps[0];
    expect(step?.verb === 'create' && (step.body.spec as { pool: unknown[] }).pool).toEqual([
      expected,
    ]);
  });

  it('O-EDIT-IP-POOL: appended entries and edited NICs neither', () => {
    const plan = planPatchIpPool(
      'demo-worker-pool',
      req({
        append: [blank],
        update: [
          { ip: '10.0.1.14', additionNic: [{ mask: '', dvSwitchName: 'd', portGroupName: 'p' }] },
        ],
      }),
      pool(),
      ctx,
    );
    expect(canExecute(plan)).toBe(true);
    const after = applySteps([pool()], plan.steps)[0] as DCSIpHostnamePool;
    expect(after.spec?.pool?.at(-1)).toEqual(expected);
    expect(after.spec?.pool?.[3]?.additionNic).toEqual([{ dvSwitchName: 'd', portGroupName: 'p' }]);
  });
});
