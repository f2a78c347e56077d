import { describe, expect, it } from 'vitest';
import { ANNOTATION_EXCLUDE_NODE_DRAINING, deletionView, parseDrainMessage } from './drain';

// Cluster API v1.14 EvictionResult.ConditionMessage, with the API server's 429 for a PDB.
const PDB_ERROR =
  "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently";
const BLOCKED = [
  'Drain not completed yet (started at 2026-12-07T10:00:00Z):',
  '* Pods with deletionTimestamp that still exist: default/a, default/b, default/c, ... (2 more)',
  '* Pods with eviction failed:',
  `  * ${PDB_ERROR}: default/web-1`,
  '  * some other error: ns/x, ns/y',
  '  * ... (3 more errors applying to 4 Pods)',
  '* After above Pods have been removed from the Node, the following Pods will be evicted: db/p-0',
].join('\n');

describe('parseDrainMessage (issue 26 item 6: what a drain waits for)', () => {
  it('reads the pods being evicted, the refused evictions with their PDB, and the truncations', () => {
    const d = parseDrainMessage(BLOCKED);
    expect(d.startedAt).toBe('2026-12-07T10:00:00Z');
    expect(d.evicting).toEqual({ pods: ['default/a', 'default/b', 'default/c'], more: 2 });
    expect(d.failed).toEqual([
      {
        error: PDB_ERROR,
        pods: ['default/web-1'],
        more: 0,
        pdb: { name: 'web', needs: 2, has: 2 },
      },
      { error: 'some other error', pods: ['ns/x', 'ns/y'], more: 0, pdb: undefined },
    ]);
    expect(d.moreErrors).toEqual({ errors: 3, pods: 4 });
    expect(d.later).toEqual({ pods: ['db/p-0'], more: 0 });
  });

  it('the bare header (before the first eviction) and no message give empty lists', () => {
    const d = parseDrainMessage('Drain not completed yet (started at 2026-12-07T10:00:00Z):');
    expect(d).toMatchObject({ evicting: { pods: [] }, failed: [], later: { pods: [] } });
    expect(parseDrainMessage(undefined).failed).toEqual([]);
    expect(parseDrainMessage('Draining the node before deletion').startedAt).toBeUndefined();
  });

  it("the per-Pod lines of the simulator's current drain message are read too", () => {
    const d = parseDrainMessage(
      "Drain not completed yet (started at t):\n* Pod default/web-abcde: cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 1 healthy pods and has 1 currently\n* Pod default/api-1: deletionTimestamp set, but still not removed from the Node",
    );
    expect(d.failed).toMatchObject([
      { pods: ['default/web-abcde'], pdb: { name: 'web', needs: 1, has: 1 } },
    ]);
    expect(d.evicting.pods).toEqual(['default/api-1']);
  });

  it('one more error / one Pod is read as singular', () => {
    const d = parseDrainMessage(
      'Drain not completed yet (started at t):\n* Pods with eviction failed:\n  * ... (1 more error applying to 1 Pod)',
    );
    expect(d.moreErrors).toEqual({ errors: 1, pods: 1 });
  });
});

describe('deletionView (issue 26 item 6: the deletion step and what the operator can do)', () => {
  const now = Date.parse('2026-12-07T10:10:00Z');
  const base = { deletionTimestamp: '2026-12-07T09:59:00Z', nowMs: now };

  it('not deleting: no view', () => {
    expect(deletionView({ nowMs: now })).toBeUndefined();
  });

  it('v1beta2 DrainingNode blocked by a PDB, no timeout: wait, fix the PDB, set a timeout, skip the drain', () => {
    const v = deletionView({
      ...base,
      deleting: { status: 'True', reason: 'DrainingNode', message: BLOCKED },
      nodeDrainStartTime: '2026-12-07T10:00:00Z',
    });
    expect(v).toMatchObject({ step: 'DrainingNode', draining: true, drainingForMs: 600_000 });
    expect(v?.timedOut).toBe(false);
    expect(v?.actions).toEqual(['wait', 'fix-pdb', 'set-drain-timeout', 'exclude-node-draining']);
  });

  it('v1beta1 only: DrainingSucceeded=False reason Draining is the drain step, its message parsed', () => {
    const v = deletionView({
      ...base,
      drainingSucceeded: { status: 'False', reason: 'Draining', message: BLOCKED },
      nodeDrainStartTime: '2026-12-07T10:00:00Z',
      nodeDrainTimeout: '5m',
      annotations: { [ANNOTATION_EXCLUDE_NODE_DRAINING]: '' },
    });
    expect(v?.step).toBe('DrainingNode');
    expect(v?.drain?.failed[0]?.pdb?.name).toBe('web');
    expect(v?.drainTimeoutMs).toBe(300_000);
    expect(v?.timedOut).toBe(true);
    expect(v?.excluded).toBe(true);
    expect(v?.actions).toEqual(['wait', 'fix-pdb']);
  });

  it('later steps carry no drain and no actions; an unknown reason is Unknown', () => {
    const v = deletionView({
      ...base,
      deleting: { status: 'True', reason: 'WaitingForInfrastructureDeletion', message: '' },
    });
    expect(v).toMatchObject({
      step: 'WaitingForInfrastructureDeletion',
      draining: false,
      actions: [],
    });
    expect(deletionView({ ...base, deleting: { status: 'True', reason: 'Bogus' } })?.step).toBe(
      'Unknown',
    );
  });

  it('a bad nodeDrainTimeout is no timeout; __proto__ annotations are inert', () => {
    const annotations = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, string>;
    const v = deletionView({
      ...base,
      deleting: { status: 'True', reason: 'DrainingNode', message: '' },
      nodeDrainTimeout: 'soon',
      annotations,
    });
    expect(v?.drainTimeoutMs).toBeUndefined();
    expect(v?.excluded).toBe(false);
  });
});
