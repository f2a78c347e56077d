import { describe, expect, it } from 'vitest';
import { PatchIpPoolRequestSchema, type PatchIpPoolRequest } from '../requests';
import type { DCSIpHostnamePool } from '../schemas/dcs';
import { anIpEntry, anIpPool, aValidationContext } from '../testing';
import { applyJsonPatch, type JsonPatchOp } from './json-patch';
import { canExecute, type Plan } from './plan';
import { planPatchIpPool } from './ip-pool';

// Issue 12: edit an unclaimed IP-pool entry (ip, hostname, gateway, dns, mask, machineName)
// without losing anything (R-POOL-4); claimed entries stay read-only (R-POOL-5).

const base = aValidationContext();
// Entries 1 and 2 are held by machines; entry 3 (10.0.1.13) is free.
const ctx = aValidationContext({
  ipPools: base.ipPools.map((p) => ({ ...p, claims: p.claims.slice(0, 2) })),
});
const pool = (): DCSIpHostnamePool => anIpPool({ metadata: { resourceVersion: '1' } });
const req = (update: unknown[], resourceVersion = '1'): PatchIpPoolRequest =>
  PatchIpPoolRequestSchema.parse({ resourceVersion, update });
const ops = (plan: Plan): JsonPatchOp[] => {
  const s = plan.steps[0];
  return s?.verb === 'patch' && s.patch.type === 'json' ? s.patch.ops : [];
};
const errors = (plan: Plan) =>
  plan.issues.filter((i) => i.severity === 'error').map((i) => [i.rule, i.path]);

describe('edit an unclaimed IP-pool entry (R-POOL-4)', () => {
  it('R-POOL-4: one JSON patch guarded by the resourceVersion and the entry’s ip, each field behind a test of its old value; every other entry and this one’s disks are kept', () => {
    const plan = planPatchIpPool(
      'demo-worker-pool',
      req([{ ip: '10.0.1.13', set: { hostname: 'spare-3 ', dns: '10.0.0.53', machineName: '' } }]),
      pool(),
      ctx,
    );
    expect(errors(plan)).toEqual([]);
    expect(ops(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '1' },
      { op: 'test', path: '/spec/pool/2/ip', value: '10.0.1.13' },
      { op: 'test', path: '/spec/pool/2/dns', value: '10.0.0.2' },
      { op: 'replace', path: '/spec/pool/2/dns', value: '10.0.0.53' },
      { op: 'test', path: '/spec/pool/2/hostname', value: 'worker-node-3' },
      { op: 'replace', path: '/spec/pool/2/hostname', value: 'spare-3' },
      { op: 'test', path: '/spec/pool/2/machineName', value: 'worker-vm-3' },
      { op: 'remove', path: '/spec/pool/2/machineName' },
    ]);
    expect(canExecute(plan)).toBe(true);
    const after = applyJsonPatch(pool(), ops(plan).slice(1));
    const entries = after.spec?.pool ?? [];
    expect(entries[0]).toEqual(anIpEntry(1));
    expect(entries[1]).toEqual(anIpEntry(2));
    const { machineName: _gone, ...rest } = anIpEntry(3);
    expect(entries[2]).toEqual({ ...rest, dns: '10.0.0.53', hostname: 'spare-3' });
  });

  it('R-POOL-4 with R-DISK-1: a new ip replaces the old one after the guard; an entry with persistent disks is warned that its volumes stay with the old ip', () => {
    const plan = planPatchIpPool(
      'demo-worker-pool',
      req([{ ip: '10.0.1.13', set: { ip: '10.0.1.23' } }]),
      pool(),
      ctx,
    );
    expect(ops(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '1' },
      { op: 'test', path: '/spec/pool/2/ip', value: '10.0.1.13' },
      { op: 'replace', path: '/spec/pool/2/ip', value: '10.0.1.23' },
    ]);
    expect(plan.issues.map((i) => [i.rule, i.severity, i.path])).toEqual([
      ['R-DISK-1', 'warning', 'update.0.set.ip'],
    ]);
  });

  it('R-POOL-5: a claimed entry’s own fields are read-only; its NICs and disks are edited as before', () => {
    const plan = planPatchIpPool(
      'demo-worker-pool',
      req([{ ip: '10.0.1.11', set: { hostname: 'renamed' } }]),
      pool(),
      ctx,
    );
    expect(errors(plan)).toEqual([['R-POOL-5', 'update.0.set']]);
    expect(plan.issues[0]?.message).toMatch(/held by machine demo-md-0-abc12-m1/);
    expect(canExecute(plan)).toBe(false);
  });

  it('R-POOL-2, R-POOL-3: the edited entry is judged like a new one among the others (a taken hostname or ip, a bad address, a cleared required field)', () => {
    const dup = planPatchIpPool(
      'demo-worker-pool',
      req([{ ip: '10.0.1.13', set: { hostname: 'worker-node-1', ip: '10.0.1.12' } }]),
      pool(),
      ctx,
    );
    expect(errors(dup)).toEqual(
      expect.arrayContaining([
        ['R-POOL-2', 'update.0.set.ip'],
        ['R-POOL-2', 'update.0.set.hostname'],
      ]),
    );
    const bad = planPatchIpPool(
      'demo-worker-pool',
      req([{ ip: '10.0.1.13', set: { gateway: '10.0.1.300', mask: '' } }]),
      pool(),
      ctx,
    );
    const paths = bad.issues.filter((i) => i.severity === 'error').map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['update.0.set.gateway', 'update.0.set.mask']));
    // A cleared required field writes nothing.
    expect(ops(bad).some((o) => o.path.endsWith('/mask'))).toBe(false);
  });

  it('R-POOL-4: an edit of a pool someone changed meanwhile is re-applied to its current entries, by ip, and says so', () => {
    // Someone removed entry 1 and appended entry 4: entry 3 is now at index 1.
    const current = anIpPool({ metadata: { resourceVersion: '2' } });
    current.spec = { pool: [anIpEntry(2), anIpEntry(3), anIpEntry(4)] };
    const plan = planPatchIpPool(
      'demo-worker-pool',
      req([{ ip: '10.0.1.13', set: { hostname: 'spare-3' } }], '1'),
      current,
      ctx,
    );
    expect(ops(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '2' },
      { op: 'test', path: '/spec/pool/1/ip', value: '10.0.1.13' },
      { op: 'test', path: '/spec/pool/1/hostname', value: 'worker-node-3' },
      { op: 'replace', path: '/spec/pool/1/hostname', value: 'spare-3' },
    ]);
    expect(plan.issues.map((i) => [i.rule, i.severity, i.messageKey])).toContainEqual([
      'R-POOL-4',
      'warning',
      'plan.issue.poolChanged',
    ]);
    const after = applyJsonPatch(current, ops(plan).slice(1)).spec?.pool ?? [];
    expect(after.map((e) => e.ip)).toEqual(['10.0.1.12', '10.0.1.13', '10.0.1.14']);
    expect(after[2]).toEqual(anIpEntry(4));
  });
});
