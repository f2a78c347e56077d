import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  ANNOTATION_AUTOSCALER_MAX_SIZE,
  ANNOTATION_AUTOSCALER_MIN_SIZE,
  nodeGroupOf,
  parseAutoscalerStatus,
  type ConfigMap,
} from '@dcs/domain';
import { clusterUp, createPool, must, waitSettled } from '../support/scenario';
import { NS, startSim, type Sim } from '../support/sim';

/**
 * Issue 26 item 2: where a pool of a cluster carries the cluster autoscaler's bounds, its workload
 * cluster has the status ConfigMap cluster-autoscaler writes (`kube-system/cluster-autoscaler-status`,
 * upstream's YAML), kept consistent with the pool's replicas and bounds; a cluster without bounds
 * has none.
 */

const CLUSTER = 'scaler';
const POOL = 'scaler-w';
const OTHER = 'plain';
let sim: Sim;

beforeAll(async () => {
  sim = await startSim({ timeScale: 1000 });
  await clusterUp(sim, CLUSTER);
  await clusterUp(sim, OTHER);
  await createPool(sim, {
    name: POOL,
    cluster: CLUSTER,
    version: 'v1.34.1',
    replicas: 2,
    entries: 4,
  });
  await waitSettled(sim, POOL);
}, 150_000);
afterAll(async () => {
  await sim.close();
});

const CM = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  namespace: 'kube-system',
  name: 'cluster-autoscaler-status',
};
const statusOf = async (cluster: string) => {
  const wc = await sim.controllers.workload?.get(NS, cluster);
  return wc?.server.client.get(CM) as ConfigMap | undefined;
};
const groupOf = async () => {
  const cm = await statusOf(CLUSTER);
  const r = parseAutoscalerStatus(cm?.data?.status ?? '', parse);
  return 'document' in r ? nodeGroupOf(r.document, NS, POOL) : undefined;
};
/** Polls an async check (real time) until it gives a value. */
async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${sim.dump()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the simulated cluster autoscaler status (issue 26 item 2)', () => {
  it('no pool with bounds: no status ConfigMap', async () => {
    await sim.controllers.idle();
    expect(await statusOf(CLUSTER)).toBeUndefined();
  });

  it('bounds on a pool: the ConfigMap appears in upstream’s YAML, its node group with the pool’s target, min and max, Healthy, no activity', async () => {
    await sim.kubectl.annotate('MachineDeployment', POOL, {
      [ANNOTATION_AUTOSCALER_MIN_SIZE]: '1',
      [ANNOTATION_AUTOSCALER_MAX_SIZE]: '4',
    });
    const group = await until('the node group', async () => groupOf());
    const cm = must(await statusOf(CLUSTER), 'status ConfigMap');
    expect(cm.metadata.annotations?.['cluster-autoscaler.kubernetes.io/last-updated']).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)? \+0000 UTC$/,
    );
    const doc = parse(must(cm.data?.status, 'status')) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(['time', 'autoscalerStatus', 'clusterWide', 'nodeGroups']);
    expect(doc.autoscalerStatus).toBe('Running');
    expect(group).toMatchObject({
      name: `MachineDeployment/${NS}/${POOL}`,
      health: { status: 'Healthy', target: 2, minSize: 1, maxSize: 4, registered: 2, ready: 2 },
      scaleUp: { status: 'NoActivity' },
      scaleDown: { status: 'NoCandidates' },
    });
    // A cluster whose pools have no bounds runs no autoscaler.
    expect(await statusOf(OTHER)).toBeUndefined();
  });

  it('a scale-up within the bounds: the target follows spec.replicas, scale-up InProgress until the node registers, then NoActivity with a later transition', async () => {
    const before = must(await groupOf(), 'group');
    await sim.kubectl.patch('MachineDeployment', POOL, 'merge', { spec: { replicas: 3 } });
    const growing = await until('scale-up in progress', async () => {
      const g = await groupOf();
      return g?.health?.target === 3 && g.scaleUp?.status === 'InProgress' ? g : undefined;
    });
    expect(growing.health?.maxSize).toBe(4);
    await waitSettled(sim, POOL);
    const done = await until('scale-up done', async () => {
      const g = await groupOf();
      // The status is written from the autoscaler's last scan, so a write can carry the third
      // node registered before the pool counts it ready: wait for the scan that has both.
      const settled = g?.health?.registered === 3 && g.health.ready === 3;
      return g?.scaleUp?.status === 'NoActivity' && settled ? g : undefined;
    });
    expect(done.health).toMatchObject({ ready: 3, target: 3 });
    expect(Date.parse(must(done.scaleUp?.lastTransitionTime, 'transition'))).toBeGreaterThanOrEqual(
      Date.parse(must(before.scaleUp?.lastTransitionTime, 'transition')),
    );
    // Health did not change: its transition time stays.
    expect(done.health?.lastTransitionTime).toBe(before.health?.lastTransitionTime);
  });

  it('new bounds are the autoscaler’s min/max at once; bounds removed: the ConfigMap stays, without the node group', async () => {
    await sim.kubectl.annotate('MachineDeployment', POOL, {
      [ANNOTATION_AUTOSCALER_MAX_SIZE]: '6',
    });
    await until('max 6', async () => ((await groupOf())?.health?.maxSize === 6 ? true : undefined));
    await sim.kubectl.annotate('MachineDeployment', POOL, {
      [ANNOTATION_AUTOSCALER_MIN_SIZE]: null,
      [ANNOTATION_AUTOSCALER_MAX_SIZE]: null,
    });
    await until('no node group', async () => {
      const cm = await statusOf(CLUSTER);
      return cm && !(await groupOf()) ? true : undefined;
    });
    const doc = parse(must((await statusOf(CLUSTER))?.data?.status, 'status')) as Record<
      string,
      unknown
    >;
    expect(doc.nodeGroups).toBeUndefined();
    expect(sim.get('MachineDeployment', POOL)?.spec?.replicas).toBe(3);
  });
});
