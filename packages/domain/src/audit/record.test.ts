import { describe, expect, it } from 'vitest';
import { planScaleReplicas } from '../planners/scale';
import { aMachineDeployment, anAuditRecord, aValidationContext } from '../testing';
import {
  AUDIT_MAX_DIFF,
  AUDIT_MAX_VALUE_CHARS,
  appendAuditRecords,
  auditConfigMapName,
  auditRecordOf,
  auditSummary,
  parseAuditRecords,
  serializeAuditRecords,
} from './record';

const DAY = 24 * 3600 * 1000;
const NOW = Date.parse('2026-01-31T00:00:00Z');

describe('audit records (issue 12)', () => {
  it('O-SCALE-UP: a record names the user, the operation, the plan’s objects, a compact diff and the replicas', () => {
    const plan = planScaleReplicas(
      { replicas: 6, resourceVersion: '10' },
      {
        machineDeployment: aMachineDeployment({
          metadata: { resourceVersion: '10' },
          spec: { replicas: 4 },
        }),
      },
      aValidationContext(),
    );
    const r = auditRecordOf({
      id: 'x1',
      time: '2026-01-01T10:02:00Z',
      user: 'alice',
      action: 'nodepool.scale',
      namespace: 'cpaas-system',
      cluster: 'demo',
      dryRun: false,
      result: 'applied',
      plan,
    });
    expect(r).toMatchObject({
      user: 'alice',
      operation: 'O-SCALE-UP',
      pool: 'demo-md-0',
      target: { kind: 'MachineDeployment', name: 'demo-md-0' },
      objects: ['patch MachineDeployment/demo-md-0'],
      replicas: { from: 4, to: 6 },
      dryRun: false,
      result: 'applied',
    });
    expect(r.diff).toContainEqual({
      object: 'MachineDeployment/demo-md-0',
      path: '/spec/replicas',
      change: 'replace',
      before: '4',
      after: '6',
    });
    expect(auditSummary(r)).toBe('alice O-SCALE-UP MachineDeployment demo-md-0 4 → 6: applied');
  });

  it('keeps the diff compact: at most AUDIT_MAX_DIFF changes, values cut, the rest counted', () => {
    const long = 'x'.repeat(1000);
    const changes = Array.from({ length: 50 }, (_, i) => ({
      path: `/spec/files/${String(i)}/content`,
      change: 'replace' as const,
      before: long,
      after: `${long}!`,
    }));
    const r = auditRecordOf({
      id: 'x2',
      time: '2026-01-01T10:02:00Z',
      user: 'bob',
      action: 'nodepool.upgrade',
      namespace: 'cpaas-system',
      cluster: 'demo',
      dryRun: true,
      result: 'dry-run',
      plan: {
        operation: 'O-UPDATE-BOOTSTRAP',
        namespace: 'cpaas-system',
        target: { kind: 'MachineDeployment', name: 'demo-md-0' },
        steps: [],
        kubectl: [],
        issues: [],
        diffs: [
          {
            kind: 'KubeadmConfigTemplate',
            namespace: 'cpaas-system',
            name: 't',
            change: 'update',
            changes,
          },
          {
            kind: 'DCSMachineTemplate',
            namespace: 'cpaas-system',
            name: 'n',
            change: 'create',
            changes: [],
          },
        ],
        effects: {},
      },
    });
    expect(r.diff).toHaveLength(AUDIT_MAX_DIFF);
    expect(r.diffTruncated).toBe(51 - AUDIT_MAX_DIFF);
    for (const d of r.diff)
      expect((d.before ?? '').length).toBeLessThanOrEqual(AUDIT_MAX_VALUE_CHARS);
  });

  it('a refusal without a plan is recorded under its action', () => {
    const r = auditRecordOf({
      id: 'x3',
      time: '2026-01-01T10:02:00Z',
      user: 'eve',
      action: 'nodepool.scale',
      namespace: 'cpaas-system',
      cluster: 'demo',
      dryRun: false,
      result: 'Forbidden',
      status: 403,
      message: 'no',
    });
    expect(r).toMatchObject({ operation: 'nodepool.scale', objects: [], status: 403 });
    expect(r.pool).toBeUndefined();
  });

  it('names one ConfigMap per cluster, and one for namespace-level operations', () => {
    expect(auditConfigMapName('dev-west')).toBe('dcs-console-audit.dev-west');
    expect(auditConfigMapName('')).toBe('dcs-console-audit');
  });

  it('round-trips through JSON lines and skips lines that are not records', () => {
    const a = anAuditRecord({ id: 'a' });
    const b = anAuditRecord({ id: 'b', user: '__proto__' });
    const text = `${serializeAuditRecords([a])}not json\n{"id":1}\n${serializeAuditRecords([b])}`;
    expect(parseAuditRecords(text)).toEqual([a, b]);
    expect(parseAuditRecords(undefined)).toEqual([]);
  });
});

describe('appendAuditRecords: bounded history', () => {
  const at = (id: string, daysAgo: number) =>
    anAuditRecord({ id, time: new Date(NOW - daysAgo * DAY).toISOString() });

  it('drops records past the retention period', () => {
    const { records, dropped } = appendAuditRecords(
      [at('old', 40), at('mid', 10)],
      [at('new', 0)],
      NOW,
      { retentionMs: 30 * DAY, maxBytes: 1 << 20 },
    );
    expect(records.map((r) => r.id)).toEqual(['mid', 'new']);
    expect(dropped).toBe(1);
  });

  it('drops the oldest until the size cap holds, and never exceeds it', () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      at(`r${String(i).padStart(3, '0')}`, 200 - i),
    );
    const maxBytes = 10_000;
    const { records } = appendAuditRecords([], many, NOW, { retentionMs: 365 * DAY, maxBytes });
    expect(new TextEncoder().encode(serializeAuditRecords(records)).length).toBeLessThanOrEqual(
      maxBytes,
    );
    expect(records.length).toBeGreaterThan(0);
    expect(records.at(-1)?.id).toBe('r199');
    expect(records[0]?.id).not.toBe('r000');
  });

  it('counts multi-byte text in bytes (Chinese user names)', () => {
    const r = anAuditRecord({
      id: 'zh',
      user: '张三'.repeat(100),
      time: new Date(NOW).toISOString(),
    });
    const size = new TextEncoder().encode(serializeAuditRecords([r])).length;
    expect(
      appendAuditRecords([], [r], NOW, { retentionMs: DAY, maxBytes: size }).records,
    ).toHaveLength(1);
    expect(
      appendAuditRecords([], [r], NOW, { retentionMs: DAY, maxBytes: size - 1 }).records,
    ).toHaveLength(0);
  });

  it('keeps a retried record once and orders replicas’ records by time, then id', () => {
    const a = at('b', 1);
    const b = anAuditRecord({ id: 'a', time: a.time });
    const { records } = appendAuditRecords([a], [a, b], NOW);
    expect(records.map((r) => r.id)).toEqual(['a', 'b']);
  });
});
