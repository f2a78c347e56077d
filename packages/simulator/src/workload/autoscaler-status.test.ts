import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import {
  ANNOTATION_AUTOSCALER_CAPACITY_CPU,
  ANNOTATION_AUTOSCALER_CAPACITY_MEMORY,
  ANNOTATION_AUTOSCALER_MAX_SIZE,
  ANNOTATION_AUTOSCALER_MIN_SIZE,
  nodeGroupOf,
  parseAutoscalerStatus,
} from '@dcs/domain';
import { aMachine, aMachineDeployment } from '@dcs/domain/testing';
import {
  autoscalerStatusDocument,
  goTime,
  nodeGroupInputOf,
  transitionsOf,
  type NodeGroupInput,
} from './autoscaler-status';

const T0 = Date.parse('2026-12-07T10:00:00.120Z');
const group = (o: Partial<NodeGroupInput> = {}): NodeGroupInput => ({
  namespace: 'cpaas-system',
  name: 'demo-md-0',
  minSize: 1,
  maxSize: 5,
  target: 3,
  registered: 3,
  ready: 3,
  ...o,
});
const read = (text: string) => {
  const r = parseAutoscalerStatus(text, parse);
  if (!('document' in r)) throw new Error(r.error);
  return r.document;
};

describe('the simulated autoscaler status document', () => {
  it('goTime: Go’s 2006-01-02 15:04:05.999999999 -0700 MST, trailing zeros cut', () => {
    expect(goTime(T0)).toBe('2026-12-07 10:00:00.12 +0000 UTC');
    expect(goTime(Date.parse('2026-12-07T10:00:00Z'))).toBe('2026-12-07 10:00:00 +0000 UTC');
  });

  it('reads back through the console’s parser as upstream’s YAML: the node group, its counts and bounds', () => {
    const { document } = autoscalerStatusDocument([group()], T0, new Map());
    const doc = read(stringify(document));
    expect(doc.format).toBe('yaml');
    expect(doc.time).toBe('2026-12-07 10:00:00.12 +0000 UTC');
    expect(nodeGroupOf(doc, 'cpaas-system', 'demo-md-0')).toEqual({
      name: 'MachineDeployment/cpaas-system/demo-md-0',
      health: {
        status: 'Healthy',
        ready: 3,
        registered: 3,
        target: 3,
        minSize: 1,
        maxSize: 5,
        lastProbeTime: '2026-12-07T10:00:00.000Z',
        lastTransitionTime: '2026-12-07T10:00:00.000Z',
      },
      scaleUp: {
        status: 'NoActivity',
        lastProbeTime: '2026-12-07T10:00:00.000Z',
        lastTransitionTime: '2026-12-07T10:00:00.000Z',
      },
      scaleDown: {
        status: 'NoCandidates',
        lastProbeTime: '2026-12-07T10:00:00.000Z',
        lastTransitionTime: '2026-12-07T10:00:00.000Z',
      },
    });
  });

  it('a target above the registered nodes is a scale-up in progress, below them scale-down candidates; a transition time moves only with its status', () => {
    const first = stringify(autoscalerStatusDocument([group()], T0, new Map()).document);
    const later = T0 + 60_000;
    const up = stringify(
      autoscalerStatusDocument([group({ target: 4 })], later, transitionsOf(first)).document,
    );
    const g = nodeGroupOf(read(up), 'cpaas-system', 'demo-md-0');
    expect(g?.scaleUp).toMatchObject({
      status: 'InProgress',
      lastTransitionTime: '2026-12-07T10:01:00.000Z',
    });
    expect(g?.health?.lastTransitionTime).toBe('2026-12-07T10:00:00.000Z');
    expect(read(up).clusterWide.scaleUp?.status).toBe('InProgress');
    const down = autoscalerStatusDocument([group({ target: 1 })], later, new Map()).document;
    expect(
      nodeGroupOf(read(stringify(down)), 'cpaas-system', 'demo-md-0')?.scaleDown,
    ).toMatchObject({
      status: 'CandidatesPresent',
      candidates: 2,
    });
  });

  it('Unhealthy as upstream counts it: more than 3 unready nodes and more than 45 %', () => {
    const health = (registered: number, ready: number) =>
      nodeGroupOf(
        read(
          stringify(
            autoscalerStatusDocument([group({ registered, ready })], T0, new Map()).document,
          ),
        ),
        'cpaas-system',
        'demo-md-0',
      )?.health?.status;
    expect(health(10, 7)).toBe('Healthy');
    expect(health(10, 5)).toBe('Unhealthy');
    expect(health(4, 1)).toBe('Healthy');
  });

  it('no node group: no nodeGroups key, as upstream omits an empty list', () => {
    const doc = autoscalerStatusDocument([], T0, new Map()).document;
    expect(Object.keys(doc)).toEqual(['time', 'autoscalerStatus', 'clusterWide']);
  });
});

describe('nodeGroupInputOf: which MachineDeployments upstream makes node groups of', () => {
  const md = (annotations: Record<string, string>, replicas = 2) =>
    aMachineDeployment({
      metadata: { annotations },
      spec: { replicas },
      status: { readyReplicas: 2 },
    });
  const bounds = { [ANNOTATION_AUTOSCALER_MIN_SIZE]: '0', [ANNOTATION_AUTOSCALER_MAX_SIZE]: '4' };
  const machines = [1, 2, 3].map((n) => {
    const m = aMachine({ metadata: { name: `demo-md-0-abc12-m${String(n)}` } });
    // The third has no Node yet.
    if (n === 3 && m.status) delete m.status.nodeRef;
    return m;
  });

  it('with bounds: target spec.replicas, registered the machines with a Node, ready from the deployment', () => {
    expect(nodeGroupInputOf(md(bounds), machines)).toMatchObject({
      minSize: 0,
      maxSize: 4,
      target: 2,
      registered: 2,
      ready: 2,
    });
  });

  it('none without usable bounds, none at 0 replicas unless it can scale from zero', () => {
    expect(
      nodeGroupInputOf(md({ [ANNOTATION_AUTOSCALER_MIN_SIZE]: '1' }), machines),
    ).toBeUndefined();
    expect(nodeGroupInputOf(md(bounds, 0), machines)).toBeUndefined();
    expect(
      nodeGroupInputOf(
        md(
          {
            ...bounds,
            [ANNOTATION_AUTOSCALER_CAPACITY_CPU]: '4',
            [ANNOTATION_AUTOSCALER_CAPACITY_MEMORY]: '8Gi',
          },
          0,
        ),
        machines,
      ),
    ).toMatchObject({ target: 0 });
  });
});
