import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  ANNOTATION_AUTOSCALER_CAPACITY_CPU,
  ANNOTATION_AUTOSCALER_CAPACITY_MEMORY,
  ANNOTATION_AUTOSCALER_MAX_SIZE,
  ANNOTATION_AUTOSCALER_MIN_SIZE,
} from '../labels';
import { DEMO_CATALOG } from '../testing';
import {
  autoscalerTime,
  nodeGroupIdOf,
  nodeGroupOf,
  parseAutoscalerStatus,
  poolAutoscalerView,
} from './autoscaler';
import { healthyWorkerPool, NOW } from './fixtures';
import { ipPoolView } from './ippool';
import { buildWorkerPool } from './nodepool';

const MIN = ANNOTATION_AUTOSCALER_MIN_SIZE;
const MAX = ANNOTATION_AUTOSCALER_MAX_SIZE;

function poolWith(annotations: Record<string, string>, replicas = 3) {
  const f = healthyWorkerPool({ replicas });
  f.md.metadata.annotations = annotations;
  const o = f.objects;
  const ipPool = o.ipPools[0];
  const template = o.machineTemplates[0];
  return buildWorkerPool(
    {
      machineDeployment: f.md,
      machineSets: o.machineSets,
      machines: o.machines,
      dcsMachines: o.dcsMachines,
      ...(template ? { machineTemplate: template } : {}),
      ...(ipPool ? { ipPool: ipPoolView(ipPool, o.dcsMachines, o.machineDeployments) } : {}),
    },
    { now: NOW, versions: DEMO_CATALOG, providerVersion: '1.0.16', controlPlaneVersion: 'v1.33.4' },
  ).pool;
}
const autoscalerProblems = (p: ReturnType<typeof poolWith>) =>
  p.problems
    .filter((x) => x.code.startsWith('autoscaler-'))
    .map((x) => `${x.code} ${x.rule ?? ''}`);

describe('the pool card’s autoscaler bounds (NodePoolView.autoscaler)', () => {
  it('bounds the autoscaler uses: shown as written, with the numbers; no problem', () => {
    const pool = poolWith({ [MIN]: '1', [MAX]: '5' });
    expect(pool.autoscaler).toEqual({
      minSize: '1',
      maxSize: '5',
      bounds: { minSize: 1, maxSize: 5 },
      scaleFromZero: false,
    });
    expect(autoscalerProblems(pool)).toEqual([]);
  });

  it('no annotation: no autoscaler view at all', () => {
    expect(poolWith({}).autoscaler).toBeUndefined();
    expect(poolAutoscalerView(healthyWorkerPool().md)).toBeUndefined();
  });

  it('R-AS-2, R-AS-1, R-AS-3: annotations the autoscaler ignores are a problem naming the rule', () => {
    expect(autoscalerProblems(poolWith({ [MIN]: '1' }))).toEqual(['autoscaler-ignored R-AS-2']);
    expect(poolWith({ [MIN]: '1' }).autoscaler).toEqual({
      minSize: '1',
      ignored: 'incomplete',
      scaleFromZero: false,
    });
    expect(autoscalerProblems(poolWith({ [MIN]: 'one', [MAX]: '3' }))).toEqual([
      'autoscaler-ignored R-AS-1',
    ]);
    const above = poolWith({ [MIN]: '4', [MAX]: '2' });
    expect(autoscalerProblems(above)).toEqual(['autoscaler-ignored R-AS-3']);
    expect(above.problems.find((p) => p.code === 'autoscaler-ignored')?.message).toBe(
      'The cluster autoscaler ignores this pool: its min-size 4 is more than its max-size 2. Set the bounds again (Autoscaling).',
    );
  });

  it('R-AS-4: replicas outside the bounds: the autoscaler leaves the pool alone, said as a warning', () => {
    const pool = poolWith({ [MIN]: '4', [MAX]: '6' });
    expect(autoscalerProblems(pool)).toEqual(['autoscaler-replicas-outside R-AS-4']);
    expect(pool.problems.find((p) => p.rule === 'R-AS-4')?.severity).toBe('warning');
  });

  it('R-AS-6: at 0 replicas without a machine size it cannot come back up; with one it can', () => {
    expect(autoscalerProblems(poolWith({ [MIN]: '0', [MAX]: '3' }, 0))).toEqual([
      'autoscaler-stuck-at-zero R-AS-6',
    ]);
    const sized = poolWith(
      {
        [MIN]: '0',
        [MAX]: '3',
        [ANNOTATION_AUTOSCALER_CAPACITY_CPU]: '4',
        [ANNOTATION_AUTOSCALER_CAPACITY_MEMORY]: '8Gi',
      },
      0,
    );
    expect(autoscalerProblems(sized)).toEqual([]);
    expect(sized.autoscaler?.scaleFromZero).toBe(true);
  });
});

/** cluster-autoscaler's own test fixture (clusterstate/utils/status_test.yaml), a node group renamed. */
const UPSTREAM_YAML = `time: "2023-11-24 04:28:19.546750398 +0000 UTC"
message: "TEST_MSG"
autoscalerStatus: "Running"
clusterWide:
  health:
    status: "Healthy"
    nodeCounts:
      registered:
        total: 11
        ready: 4
        notStarted: 3
        suspended: 1
        beingDeleted: 1
        unready:
          total: 2
          resourceUnready: 1
      longUnregistered: 1
      unregistered: 2
    lastProbeTime: "2023-11-24T04:28:19Z"
    lastTransitionTime: "2023-11-23T14:52:02Z"
  scaleUp:
    status: "NoActivity"
    lastProbeTime: "2023-11-24T04:28:19Z"
    lastTransitionTime: "2023-11-23T14:52:02Z"
  scaleDown:
    status: "NoCandidates"
    candidates: 2
    lastProbeTime: "2023-11-24T04:28:19Z"
    lastTransitionTime: "2023-11-23T14:52:02Z"
nodeGroups:
  -
    name: "MachineDeployment/cpaas-system/demo-md-0"
    health:
      status: "Healthy"
      nodeCounts:
        registered:
          total: 11
          ready: 4
          notStarted: 3
          suspended: 1
          beingDeleted: 1
          unready:
            total: 2
            resourceUnready: 1
        longUnregistered: 1
        unregistered: 2
      cloudProviderTarget: 8
      minSize: 2
      maxSize: 12
      lastProbeTime: "2023-11-24T04:28:19Z"
      lastTransitionTime: "2023-11-23T14:52:02Z"
    scaleUp:
      status: "Backoff"
      backoffInfo:
        errorCode: "QUOTA_EXCEEDED"
        errorMessage: "Instance 'sample-node-group-40ce0341-t28s' creation failed: Quota 'CPUS' exceeded. Limit: 57.0 in region us-central1."
      lastProbeTime: "2023-11-24T04:28:19Z"
      lastTransitionTime: "2023-11-23T14:52:02Z"
    scaleDown:
      status: "NoCandidates"
      candidates: 2
      lastProbeTime: "2023-11-24T04:28:19Z"
      lastTransitionTime: "2023-11-23T14:52:02Z"
`;

/** The readable format of cluster-autoscaler before 1.30 (clusterstate/api/utils.go, GetReadableString). */
const LEGACY_TEXT = `Cluster-autoscaler status at 2024-03-05 10:11:12.123456789 +0000 UTC:
Cluster-wide:
  Health:      Healthy (ready=3 unready=0 (resourceUnready=0) notStarted=0 longNotStarted=0 registered=3 longUnregistered=0)
               LastProbeTime:      2024-03-05 10:11:12.1 +0000 UTC m=+100.5
               LastTransitionTime: 2024-03-05 09:00:00 +0000 UTC m=+1.2
  ScaleUp:     NoActivity (ready=3 registered=3)
               LastProbeTime:      2024-03-05 10:11:12.1 +0000 UTC m=+100.5
               LastTransitionTime: 2024-03-05 09:30:00 +0000 UTC m=+1800.2
  ScaleDown:   NoCandidates (candidates=0)
               LastProbeTime:      2024-03-05 10:11:12.1 +0000 UTC m=+100.5
               LastTransitionTime: 0001-01-01 00:00:00 +0000 UTC

NodeGroups:
  Name:        MachineDeployment/cpaas-system/demo-md-0
  Health:      Healthy (ready=3 unready=0 (resourceUnready=0) notStarted=0 longNotStarted=0 registered=3 longUnregistered=0 cloudProviderTarget=3 (minSize=1, maxSize=5))
               LastProbeTime:      2024-03-05 10:11:12.1 +0000 UTC m=+100.5
               LastTransitionTime: 2024-03-05 09:00:00 +0000 UTC m=+1.2
  ScaleUp:     NoActivity (ready=3 cloudProviderTarget=3)
               LastProbeTime:      2024-03-05 10:11:12.1 +0000 UTC m=+100.5
               LastTransitionTime: 2024-03-05 09:30:00 +0000 UTC m=+1800.2
  ScaleDown:   CandidatesPresent (candidates=1)
               LastProbeTime:      2024-03-05 10:11:12.1 +0000 UTC m=+100.5
               LastTransitionTime: 2024-03-05 10:05:00 +0000 UTC m=+3900.0

  Name:        MachineDeployment/cpaas-system/demo-md-1
  Health:      Unhealthy (ready=0 unready=2 (resourceUnready=0) notStarted=0 longNotStarted=0 registered=2 longUnregistered=0 cloudProviderTarget=2 (minSize=2, maxSize=4))
               LastProbeTime:      2024-03-05 10:11:12.1 +0000 UTC m=+100.5
               LastTransitionTime: 2024-03-05 10:00:00 +0000 UTC m=+3600.0
`;

describe('parseAutoscalerStatus: the autoscaler’s status ConfigMap, in either of upstream’s formats', () => {
  it('the YAML of cluster-autoscaler 1.30+: the node group’s health, min/max/target, scale-up backoff, scale-down', () => {
    const r = parseAutoscalerStatus(UPSTREAM_YAML, parseYaml);
    if (!('document' in r)) throw new Error(r.error);
    const doc = r.document;
    expect(doc).toMatchObject({
      format: 'yaml',
      time: '2023-11-24 04:28:19.546750398 +0000 UTC',
      autoscalerStatus: 'Running',
      clusterWide: {
        health: { status: 'Healthy', ready: 4, registered: 11 },
        scaleUp: { status: 'NoActivity', lastTransitionTime: '2023-11-23T14:52:02.000Z' },
        scaleDown: { status: 'NoCandidates', candidates: 2 },
      },
    });
    expect(nodeGroupOf(doc, 'cpaas-system', 'demo-md-0')).toEqual({
      name: 'MachineDeployment/cpaas-system/demo-md-0',
      health: {
        status: 'Healthy',
        ready: 4,
        registered: 11,
        target: 8,
        minSize: 2,
        maxSize: 12,
        lastProbeTime: '2023-11-24T04:28:19.000Z',
        lastTransitionTime: '2023-11-23T14:52:02.000Z',
      },
      scaleUp: {
        status: 'Backoff',
        backoff: {
          errorCode: 'QUOTA_EXCEEDED',
          errorMessage:
            "Instance 'sample-node-group-40ce0341-t28s' creation failed: Quota 'CPUS' exceeded. Limit: 57.0 in region us-central1.",
        },
        lastProbeTime: '2023-11-24T04:28:19.000Z',
        lastTransitionTime: '2023-11-23T14:52:02.000Z',
      },
      scaleDown: {
        status: 'NoCandidates',
        candidates: 2,
        lastProbeTime: '2023-11-24T04:28:19.000Z',
        lastTransitionTime: '2023-11-23T14:52:02.000Z',
      },
    });
    expect(nodeGroupOf(doc, 'cpaas-system', 'other')).toBeUndefined();
  });

  it('unquoted timestamps (a YAML reader’s Date) are read too', () => {
    const text = UPSTREAM_YAML.replaceAll('"2023-11-24T04:28:19Z"', '2023-11-24T04:28:19Z');
    const withDates = (t: string) => parseYaml(t, { customTags: ['timestamp'] }) as unknown;
    const parsed = withDates(text) as { clusterWide: { health: { lastProbeTime: unknown } } };
    expect(parsed.clusterWide.health.lastProbeTime).toBeInstanceOf(Date);
    const r = parseAutoscalerStatus(text, withDates);
    if (!('document' in r)) throw new Error(r.error);
    expect(r.document.clusterWide.health?.lastProbeTime).toBe('2023-11-24T04:28:19.000Z');
  });

  it('the legacy text format: each node group by its Name, counts from the message, Go times as RFC 3339, Go’s zero time dropped', () => {
    const r = parseAutoscalerStatus(LEGACY_TEXT, () => {
      throw new Error('not YAML');
    });
    if (!('document' in r)) throw new Error(r.error);
    const doc = r.document;
    expect(doc.format).toBe('text');
    expect(doc.time).toBe('2024-03-05 10:11:12.123456789 +0000 UTC');
    expect(doc.clusterWide.scaleDown).toEqual({
      status: 'NoCandidates',
      message: 'candidates=0',
      candidates: 0,
      lastProbeTime: '2024-03-05T10:11:12.100Z',
    });
    expect(doc.nodeGroups.map((g) => g.name)).toEqual([
      nodeGroupIdOf('cpaas-system', 'demo-md-0'),
      nodeGroupIdOf('cpaas-system', 'demo-md-1'),
    ]);
    expect(nodeGroupOf(doc, 'cpaas-system', 'demo-md-0')).toMatchObject({
      health: { status: 'Healthy', ready: 3, registered: 3, target: 3, minSize: 1, maxSize: 5 },
      scaleUp: { status: 'NoActivity', lastTransitionTime: '2024-03-05T09:30:00.000Z' },
      scaleDown: { status: 'CandidatesPresent', candidates: 1 },
    });
    expect(nodeGroupOf(doc, 'cpaas-system', 'demo-md-1')?.health).toMatchObject({
      status: 'Unhealthy',
      ready: 0,
      minSize: 2,
      maxSize: 4,
    });
  });

  it('neither format, or YAML that says nothing of an autoscaler: an error, not an empty status', () => {
    expect(parseAutoscalerStatus('hello: world', parseYaml)).toHaveProperty('error');
    expect(parseAutoscalerStatus('- a\n- b', parseYaml)).toHaveProperty('error');
    expect(
      parseAutoscalerStatus(': :', () => {
        throw new Error('bad');
      }),
    ).toHaveProperty('error');
  });

  it('fields of the wrong type are left out, not trusted; __proto__ is inert', () => {
    const r = parseAutoscalerStatus(
      'autoscalerStatus: Running\nnodeGroups:\n  - name: MachineDeployment/ns/p\n    health: {status: Healthy, minSize: "two", maxSize: 3, cloudProviderTarget: -1.5}\n    __proto__: {polluted: true}\n',
      parseYaml,
    );
    if (!('document' in r)) throw new Error(r.error);
    expect(r.document.nodeGroups[0]).toEqual({
      name: 'MachineDeployment/ns/p',
      health: { status: 'Healthy', maxSize: 3 },
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('autoscalerTime: RFC 3339 and Go’s time.String; zero and garbage are undefined', () => {
    expect(autoscalerTime('2023-11-24T04:28:19Z')).toBe('2023-11-24T04:28:19.000Z');
    expect(autoscalerTime('2024-03-05 10:11:12.987654321 +0800 CST m=+1.0')).toBe(
      '2024-03-05T02:11:12.987Z',
    );
    expect(autoscalerTime('0001-01-01 00:00:00 +0000 UTC')).toBeUndefined();
    expect(autoscalerTime('0001-01-01T00:00:00Z')).toBeUndefined();
    expect(autoscalerTime('yesterday')).toBeUndefined();
    expect(autoscalerTime(undefined)).toBeUndefined();
  });
});
