import { describe, expect, it } from 'vitest';
import { aMachine } from '../testing';
import { deletionFactsOf, drainRefusalsOf, refusalNamespace } from './deletion';
import { ANNOTATION_EXCLUDE_NODE_DRAINING, deletionView } from './drain';
import { machineView } from './machine';

/** Issue 26 item 6: what a deleting machine's view carries for its Deletion panel and signals. */

const NOW = new Date('2026-12-07T10:10:00Z');
// What the simulator writes today (per-Pod lines), and Cluster API v1.14's own form.
const SIMULATOR =
  "Drain not completed yet (started at 2026-12-07T10:00:00Z):\n* Pod default/web-abcde: cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 1 healthy pods and has 1 currently";
const UPSTREAM = [
  'Drain not completed yet (started at 2026-12-07T10:00:00Z):',
  '* Pods with eviction failed:',
  "  * Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 1 healthy pods and has 1 currently: default/web-1, default/web-2",
  "  * Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently: default/web-3",
].join('\n');

const deleting = (extra: Parameters<typeof aMachine>[0] = {}) =>
  aMachine({
    metadata: { deletionTimestamp: '2026-12-07T09:59:00Z', ...extra.metadata },
    spec: { nodeDrainTimeout: '10m', ...extra.spec },
    status: { deletion: { nodeDrainStartTime: '2026-12-07T10:00:00Z' }, ...extra.status },
  });

describe('deletionFactsOf (issue 26 item 6)', () => {
  it('a machine not being deleted has none, and its view no deletion', () => {
    expect(deletionFactsOf(aMachine())).toBeUndefined();
    const view = machineView(aMachine(), undefined, NOW);
    expect(view.deletion).toBeUndefined();
    expect(view.drainBlockedBy).toBeUndefined();
  });

  it('v1beta2: the Deleting condition, the drain start, the Machine’s nodeDrainTimeout; deletionView reads them with the clock', () => {
    const m = deleting({
      status: {
        v1beta2: {
          conditions: [
            { type: 'Deleting', status: 'True', reason: 'DrainingNode', message: UPSTREAM },
          ],
        },
      },
    });
    const facts = deletionFactsOf(m);
    expect(facts).toEqual({
      deletionTimestamp: '2026-12-07T09:59:00Z',
      deleting: { status: 'True', reason: 'DrainingNode', message: UPSTREAM },
      nodeDrainStartTime: '2026-12-07T10:00:00Z',
      nodeDrainTimeout: '10m',
    });
    const v = facts && deletionView({ ...facts, nowMs: NOW.getTime() });
    expect(v).toMatchObject({ step: 'DrainingNode', drainingForMs: 600_000, timedOut: true });
    // One refusal per budget, the first one's counts.
    expect(machineView(m, undefined, NOW).drainBlockedBy).toEqual([
      { name: 'web', needs: 1, has: 1 },
    ]);
  });

  it('v1beta1 only (Cluster API v1.10): DrainingSucceeded carries the message; the simulator’s per-Pod lines name the budget', () => {
    const m = deleting({
      status: {
        conditions: [
          {
            type: 'DrainingSucceeded',
            status: 'False',
            reason: 'Draining',
            severity: 'Info',
            message: SIMULATOR,
          },
        ],
      },
    });
    const facts = deletionFactsOf(m);
    expect(facts?.drainingSucceeded).toEqual({
      status: 'False',
      reason: 'Draining',
      message: SIMULATOR,
    });
    expect(facts?.deleting).toBeUndefined();
    expect(drainRefusalsOf(facts)).toEqual([{ name: 'web', needs: 1, has: 1 }]);
  });

  it('a later step refuses nothing, though the old drain message is still on DrainingSucceeded', () => {
    const m = deleting({
      status: {
        conditions: [{ type: 'DrainingSucceeded', status: 'True', message: SIMULATOR }],
        v1beta2: {
          conditions: [
            { type: 'Deleting', status: 'True', reason: 'WaitingForInfrastructureDeletion' },
          ],
        },
      },
    });
    expect(drainRefusalsOf(deletionFactsOf(m))).toEqual([]);
    expect(drainRefusalsOf(undefined)).toEqual([]);
  });

  it('only the exclude-node-draining annotation is carried; __proto__ is inert', () => {
    const annotations = JSON.parse(
      `{"__proto__": {"x": "1"}, "other": "v", "${ANNOTATION_EXCLUDE_NODE_DRAINING}": ""}`,
    ) as Record<string, string>;
    const facts = deletionFactsOf(deleting({ metadata: { annotations } }));
    expect(facts?.annotations).toEqual({ [ANNOTATION_EXCLUDE_NODE_DRAINING]: '' });
    const none = deletionFactsOf(
      deleting({
        metadata: {
          annotations: JSON.parse('{"__proto__": {"x": "1"}}') as Record<string, string>,
        },
      }),
    );
    expect(none?.annotations).toBeUndefined();
  });

  it('refusalNamespace: the namespace of the first "ns/name"', () => {
    expect(refusalNamespace(['default/web-1', 'x/y'])).toBe('default');
    expect(refusalNamespace(['nameonly'])).toBeUndefined();
    expect(refusalNamespace([])).toBeUndefined();
  });
});
