import { describe, expect, it } from 'vitest';
import {
  CAPI_HUB_VERSION,
  CONVERSION_DATA_ANNOTATION,
  CapiConversionError,
  capiConvertible,
  convertCapiObject,
  fromHub,
  toHub,
  type CapiObjectLike,
} from './index';
import { aKubeadmControlPlane } from '../testing/builders';

/**
 * Hand cases for every renamed or moved field of CAPI-VERSIONS.md, both ways, each derived from
 * what upstream's conversion code at v1.14.0 does (`api/core/v1beta1/conversion.go`,
 * `api/bootstrap/kubeadm/v1beta1/conversion.go`, `api/controlplane/kubeadm/v1beta1/conversion.go`).
 * The property round trips (upstream's FuzzTestFunc) are in `roundtrip.test.ts`.
 */

const META = { name: 'pool-a', namespace: 'cpaas-system', uid: 'u-1', resourceVersion: '7' };

const up = (o: CapiObjectLike): CapiObjectLike =>
  convertCapiObject(o, String(o.apiVersion).replace('/v1beta1', '/v1beta2'));
const down = (o: CapiObjectLike): CapiObjectLike =>
  convertCapiObject(o, String(o.apiVersion).replace('/v1beta2', '/v1beta1'));

/** The object without the conversion-data annotation (what FuzzTestFunc compares). */
function withoutData(o: CapiObjectLike): CapiObjectLike {
  const copy = structuredClone(o) as CapiObjectLike & {
    metadata?: { annotations?: Record<string, string> };
  };
  const annotations = copy.metadata?.annotations;
  if (annotations) {
    Reflect.deleteProperty(annotations, CONVERSION_DATA_ANNOTATION);
    if (Object.keys(annotations).length === 0) delete copy.metadata?.annotations;
  }
  return copy;
}

const dataOf = (o: CapiObjectLike): unknown =>
  JSON.parse(
    (o.metadata as { annotations: Record<string, string> }).annotations[
      CONVERSION_DATA_ANNOTATION
    ] ?? 'null',
  );

const v1beta1MD = {
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'MachineDeployment',
  metadata: META,
  spec: {
    clusterName: 'demo',
    replicas: 3,
    selector: { matchLabels: { pool: 'a' } },
    minReadySeconds: 10,
    progressDeadlineSeconds: 600,
    revisionHistoryLimit: 1,
    rolloutAfter: '2026-05-01T00:00:00Z',
    machineNamingStrategy: { template: '{{ .machineSet.name }}-{{ .random }}' },
    strategy: {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 1, maxUnavailable: '25%', deletePolicy: 'Oldest' },
      remediation: { maxInFlight: 2 },
    },
    template: {
      metadata: { labels: { pool: 'a' } },
      spec: {
        clusterName: 'demo',
        version: 'v1.33.4',
        bootstrap: {
          configRef: {
            apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
            kind: 'KubeadmConfigTemplate',
            name: 'pool-a-kct',
            namespace: 'cpaas-system',
            uid: 'u-2',
            resourceVersion: '3',
          },
        },
        infrastructureRef: {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
          kind: 'DCSMachineTemplate',
          name: 'pool-a-tpl',
          namespace: 'cpaas-system',
        },
        nodeDrainTimeout: '1m30s',
        nodeVolumeDetachTimeout: '1.5s',
        nodeDeletionTimeout: '0s',
      },
    },
  },
  status: {
    replicas: 3,
    readyReplicas: 2,
    availableReplicas: 2,
    unavailableReplicas: 1,
    updatedReplicas: 3,
    phase: 'ScalingUp',
    conditions: [
      {
        type: 'Ready',
        status: 'False',
        severity: 'Warning',
        reason: 'WaitingForAvailableMachines',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ],
    v1beta2: {
      conditions: [
        {
          type: 'Available',
          status: 'False',
          reason: 'NotAvailable',
          observedGeneration: 4,
          lastTransitionTime: '2026-01-01T00:00:00Z',
        },
      ],
      readyReplicas: 2,
      availableReplicas: 1,
      upToDateReplicas: 3,
    },
  },
};

const v1beta2MD = {
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'MachineDeployment',
  metadata: META,
  spec: {
    clusterName: 'demo',
    replicas: 3,
    selector: { matchLabels: { pool: 'a' } },
    rollout: {
      after: '2026-05-01T00:00:00Z',
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
    },
    deletion: { order: 'Oldest' },
    remediation: { maxInFlight: 2 },
    machineNaming: { template: '{{ .machineSet.name }}-{{ .random }}' },
    template: {
      metadata: { labels: { pool: 'a' } },
      spec: {
        clusterName: 'demo',
        version: 'v1.33.4',
        bootstrap: {
          configRef: {
            apiGroup: 'bootstrap.cluster.x-k8s.io',
            kind: 'KubeadmConfigTemplate',
            name: 'pool-a-kct',
          },
        },
        infrastructureRef: {
          apiGroup: 'infrastructure.cluster.x-k8s.io',
          kind: 'DCSMachineTemplate',
          name: 'pool-a-tpl',
        },
        deletion: {
          nodeDrainTimeoutSeconds: 90,
          nodeVolumeDetachTimeoutSeconds: 1,
          nodeDeletionTimeoutSeconds: 0,
        },
        minReadySeconds: 10,
      },
    },
  },
  status: {
    replicas: 3,
    phase: 'ScalingUp',
    conditions: [
      {
        type: 'Available',
        status: 'False',
        reason: 'NotAvailable',
        observedGeneration: 4,
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ],
    deprecated: {
      v1beta1: {
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            severity: 'Warning',
            reason: 'WaitingForAvailableMachines',
            lastTransitionTime: '2026-01-01T00:00:00Z',
          },
        ],
        availableReplicas: 2,
        unavailableReplicas: 1,
        updatedReplicas: 3,
        readyReplicas: 2,
      },
    },
    readyReplicas: 2,
    availableReplicas: 1,
    upToDateReplicas: 3,
  },
};

describe('MachineDeployment', () => {
  it('v1beta1 → v1beta2: strategy → rollout/deletion/remediation, durations → seconds, refs → {apiGroup,kind,name}, removed fields dropped', () => {
    expect(up(v1beta1MD)).toEqual(v1beta2MD);
  });

  it('v1beta2 → v1beta1: back, with apiVersion rebuilt, the namespace of the object, Go-formatted durations', () => {
    const back = down(v1beta2MD) as unknown as typeof v1beta1MD;
    const spec = back.spec;
    expect(spec.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '25%', maxSurge: 1, deletePolicy: 'Oldest' },
      remediation: { maxInFlight: 2 },
    });
    expect(spec.rolloutAfter).toBe('2026-05-01T00:00:00Z');
    expect(spec.minReadySeconds).toBe(10);
    expect(spec.machineNamingStrategy).toEqual({
      template: '{{ .machineSet.name }}-{{ .random }}',
    });
    expect(spec.template.spec).toEqual({
      clusterName: 'demo',
      version: 'v1.33.4',
      bootstrap: {
        configRef: {
          // upstream's apiVersionGetter: the CRD's contract version (v1beta2 for CAPI's own kinds).
          apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
          kind: 'KubeadmConfigTemplate',
          namespace: 'cpaas-system',
          name: 'pool-a-kct',
        },
      },
      infrastructureRef: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'DCSMachineTemplate',
        namespace: 'cpaas-system',
        name: 'pool-a-tpl',
      },
      // 1.5s became 1 second on the way up: the sub-second part is lost, as upstream loses it.
      nodeDrainTimeout: '1m30s',
      nodeVolumeDetachTimeout: '1s',
      nodeDeletionTimeout: '0s',
    });
    expect('progressDeadlineSeconds' in spec).toBe(false);
    expect(back.status).toEqual({
      ...v1beta1MD.status,
    });
  });

  it('v1beta2 → v1beta1 stores the v1beta2 object without metadata in the conversion data, and back restores and removes it', () => {
    const back = down(v1beta2MD);
    const { metadata: _m, ...hub } = v1beta2MD;
    expect(dataOf(back)).toEqual(hub);
    const again = up(back);
    expect(again).toEqual(v1beta2MD);
    expect(JSON.stringify(again)).not.toContain(CONVERSION_DATA_ANNOTATION);
  });

  it('paused: a v1beta2 false survives a v1beta1 round trip only through the conversion data', () => {
    const paused = { ...v1beta2MD, spec: { ...v1beta2MD.spec, paused: false } };
    const v1 = down(paused);
    expect((v1 as { spec: object }).spec).not.toHaveProperty('paused');
    expect((up(v1) as { spec: { paused?: boolean } }).spec.paused).toBe(false);
    expect((up(withoutData(v1)) as { spec: object }).spec).not.toHaveProperty('paused');
  });

  it('refuses a v1beta1 duration Go cannot parse, naming the field', () => {
    const bad = structuredClone(v1beta1MD);
    bad.spec.template.spec.nodeDrainTimeout = '5 minutes';
    expect(() => up(bad)).toThrow(CapiConversionError);
    try {
      up(bad);
    } catch (e) {
      expect((e as CapiConversionError).field).toBe('spec.template.spec.nodeDrainTimeout');
      expect((e as CapiConversionError).message).toBe(
        'spec.template.spec.nodeDrainTimeout: time: unknown unit " minutes" in duration "5 minutes"',
      );
    }
  });

  it('refuses a ref apiVersion ParseGroupVersion refuses', () => {
    const bad = structuredClone(v1beta1MD);
    bad.spec.template.spec.infrastructureRef.apiVersion = 'a/b/c';
    expect(() => up(bad)).toThrow(
      'spec.template.spec.infrastructureRef.apiVersion: failed to convert object: failed to parse apiVersion: unexpected GroupVersion string: a/b/c',
    );
  });

  it('rebuilds ref apiVersions with the given getter, and refuses a group it cannot answer for', () => {
    const back = convertCapiObject(v1beta2MD, 'cluster.x-k8s.io/v1beta1', {
      refApiVersionOf: (group) => `${group}/v1beta1`,
    }) as unknown as typeof v1beta1MD;
    expect(back.spec.template.spec.bootstrap.configRef.apiVersion).toBe(
      'bootstrap.cluster.x-k8s.io/v1beta1',
    );
    const other = structuredClone(v1beta2MD);
    other.spec.template.spec.infrastructureRef.apiGroup = 'example.com';
    expect(() => down(other)).toThrow(
      /spec\.template\.spec\.infrastructureRef: failed to convert object/u,
    );
  });

  it('never mutates its input, and treats __proto__/constructor/prototype as inert', () => {
    const input = JSON.parse(
      JSON.stringify(v1beta1MD).replace(
        '"clusterName":"demo"',
        '"clusterName":"demo","__proto__":{"polluted":true},"constructor":{"x":1}',
      ),
    ) as typeof v1beta1MD;
    const before = JSON.stringify(input);
    const out = up(input);
    expect(JSON.stringify(input)).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(out)).not.toContain('polluted');
  });

  it('a v1beta1 object without status gets the deprecated block upstream always allocates', () => {
    const { status: _s, ...noStatus } = v1beta1MD;
    expect((up(noStatus) as { status: unknown }).status).toEqual({ deprecated: { v1beta1: {} } });
  });
});

describe('MachineSet', () => {
  it('deletePolicy ⇄ deletion.order, minReadySeconds ⇄ template.spec.minReadySeconds (0 is unset)', () => {
    const ms = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineSet',
      metadata: META,
      spec: {
        clusterName: 'demo',
        replicas: 1,
        deletePolicy: 'Newest',
        minReadySeconds: 0,
        selector: {},
        template: { spec: { clusterName: 'demo', bootstrap: {}, infrastructureRef: {} } },
      },
      status: {
        fullyLabeledReplicas: 1,
        readyReplicas: 1,
        failureReason: 'X',
        v1beta2: { upToDateReplicas: 1 },
      },
    };
    const v2 = up(ms) as {
      spec: { deletion: unknown; template: { spec: object } };
      status: unknown;
    };
    expect(v2.spec.deletion).toEqual({ order: 'Newest' });
    expect(v2.spec.template.spec).toEqual({ clusterName: 'demo', bootstrap: {} });
    expect(v2.status).toEqual({
      upToDateReplicas: 1,
      deprecated: { v1beta1: { fullyLabeledReplicas: 1, readyReplicas: 1, failureReason: 'X' } },
    });
    const back = down(v2) as unknown as typeof ms;
    expect(back.spec.deletePolicy).toBe('Newest');
    expect(back.spec).not.toHaveProperty('minReadySeconds');
    expect(back.status).toEqual({
      fullyLabeledReplicas: 1,
      readyReplicas: 1,
      failureReason: 'X',
      v1beta2: { upToDateReplicas: 1 },
    });
  });
});

describe('Machine', () => {
  const v2 = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: META,
    spec: {
      clusterName: 'demo',
      bootstrap: { dataSecretName: 's' },
      infrastructureRef: {
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'DCSMachine',
        name: 'm',
      },
      minReadySeconds: 5,
      version: '',
    },
    status: {
      phase: 'Updating',
      nodeRef: { name: 'node-1' },
      initialization: { bootstrapDataSecretCreated: true, infrastructureProvisioned: false },
      conditions: [
        {
          type: 'Deleting',
          status: 'True',
          reason: 'DrainingNode',
          message: 'Pods pending deletion: p1',
          observedGeneration: 2,
          lastTransitionTime: '2026-01-01T00:00:00Z',
        },
      ],
      deletion: { nodeDrainStartTime: '2026-01-01T00:00:01Z' },
      failureDomain: 'fd-1',
    },
  };

  it('v1beta2 → v1beta1: nodeRef {name} → a Node reference, Updating → Running, initialization → bootstrapReady/infrastructureReady, empty strings dropped', () => {
    const v1 = down(v2) as Record<string, Record<string, unknown>>;
    expect(v1.spec).toEqual({
      clusterName: 'demo',
      bootstrap: { dataSecretName: 's' },
      infrastructureRef: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'DCSMachine',
        namespace: 'cpaas-system',
        name: 'm',
      },
    });
    expect(v1.status).toEqual({
      phase: 'Running',
      nodeRef: { apiVersion: 'v1', kind: 'Node', name: 'node-1' },
      bootstrapReady: true,
      infrastructureReady: false,
      deletion: { nodeDrainStartTime: '2026-01-01T00:00:01Z' },
      v1beta2: { conditions: v2.status.conditions },
    });
  });

  it('v1beta1 → v1beta2 restores minReadySeconds, the phase and a false that was set from the conversion data', () => {
    const back = up(down(v2)) as typeof v2;
    expect(back.spec.minReadySeconds).toBe(5);
    expect(back.status.phase).toBe('Updating');
    expect(back.status.initialization).toEqual({
      bootstrapDataSecretCreated: true,
      infrastructureProvisioned: false,
    });
    // Without the data, v1beta1's false is "not set".
    const bare = up(withoutData(down(v2))) as typeof v2;
    expect(bare.status.initialization).toEqual({ bootstrapDataSecretCreated: true });
    expect(bare.spec).not.toHaveProperty('minReadySeconds');
    expect(bare.status.phase).toBe('Running');
  });
});

describe('Cluster', () => {
  it('failureDomains map ⇄ sorted list, readiness ⇄ initialization, the v1beta2 counters', () => {
    const v1 = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Cluster',
      metadata: META,
      spec: {
        controlPlaneRef: {
          apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
          kind: 'KubeadmControlPlane',
          name: 'cp',
          namespace: 'cpaas-system',
        },
        infrastructureRef: {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
          kind: 'DCSCluster',
          name: 'c',
        },
      },
      status: {
        failureDomains: { zb: { controlPlane: true }, za: { attributes: { rack: '1' } } },
        controlPlaneReady: true,
        infrastructureReady: true,
        phase: 'Provisioned',
        v1beta2: { controlPlane: { replicas: 3, readyReplicas: 3 }, workers: { replicas: 2 } },
      },
    };
    const v2 = up(v1) as Record<string, Record<string, unknown>>;
    expect(v2.spec).toEqual({
      controlPlaneRef: {
        apiGroup: 'controlplane.cluster.x-k8s.io',
        kind: 'KubeadmControlPlane',
        name: 'cp',
      },
      infrastructureRef: {
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'DCSCluster',
        name: 'c',
      },
    });
    expect(v2.status).toEqual({
      failureDomains: [
        { name: 'za', controlPlane: false, attributes: { rack: '1' } },
        { name: 'zb', controlPlane: true },
      ],
      initialization: { controlPlaneInitialized: true, infrastructureProvisioned: true },
      phase: 'Provisioned',
      controlPlane: { replicas: 3, readyReplicas: 3 },
      workers: { replicas: 2 },
    });
    const back = down(v2) as typeof v1;
    expect(back.status).toEqual(v1.status);
    expect(back.spec.controlPlaneRef).toEqual({
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmControlPlane',
      namespace: 'cpaas-system',
      name: 'cp',
    });
  });
});

describe('Cluster topology', () => {
  it('class ⇄ classRef; control plane and MachineDeployment topologies: timeouts, machineHealthCheck ⇄ healthCheck, strategy ⇄ rollout/deletion/healthCheck.remediation', () => {
    const v1 = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Cluster',
      metadata: META,
      spec: {
        topology: {
          class: 'dcs',
          classNamespace: 'classes',
          version: 'v1.33.4',
          rolloutAfter: '2026-01-01T00:00:00Z',
          controlPlane: {
            replicas: 3,
            nodeDrainTimeout: '30s',
            machineHealthCheck: {
              enable: true,
              maxUnhealthy: 1,
              nodeStartupTimeout: '10m',
              unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: '5m' }],
            },
          },
          workers: {
            machineDeployments: [
              {
                class: 'worker',
                name: 'md-0',
                failureDomain: 'fd',
                nodeDeletionTimeout: '1m',
                strategy: {
                  type: 'RollingUpdate',
                  rollingUpdate: { maxSurge: 0, deletePolicy: 'Oldest' },
                  remediation: { maxInFlight: 1 },
                },
              },
            ],
          },
        },
      },
    };
    const v2 = up(v1) as { spec: { topology: unknown } };
    expect(v2.spec.topology).toEqual({
      classRef: { name: 'dcs', namespace: 'classes' },
      version: 'v1.33.4',
      controlPlane: {
        replicas: 3,
        deletion: { nodeDrainTimeoutSeconds: 30 },
        healthCheck: {
          enabled: true,
          checks: {
            unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }],
            nodeStartupTimeoutSeconds: 600,
          },
          remediation: { triggerIf: { unhealthyLessThanOrEqualTo: 1 } },
        },
      },
      workers: {
        machineDeployments: [
          {
            class: 'worker',
            name: 'md-0',
            failureDomain: 'fd',
            deletion: { nodeDeletionTimeoutSeconds: 60, order: 'Oldest' },
            rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0 } } },
            healthCheck: { remediation: { maxInFlight: 1 } },
          },
        ],
      },
    });
    const back = down(v2) as typeof v1;
    // rolloutAfter was unused and is gone in v1beta2 (upstream's fuzzer drops it too).
    const { rolloutAfter: _r, ...topology } = v1.spec.topology;
    expect(back.spec.topology).toEqual({
      ...topology,
      controlPlane: {
        ...topology.controlPlane,
        nodeDrainTimeout: '30s',
        machineHealthCheck: {
          ...topology.controlPlane.machineHealthCheck,
          nodeStartupTimeout: '10m0s',
          unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: '5m0s' }],
        },
      },
      workers: {
        machineDeployments: [
          { ...topology.workers.machineDeployments[0], nodeDeletionTimeout: '1m0s' },
        ],
      },
    });
  });
});

describe('MachineHealthCheck', () => {
  it('unhealthyConditions/maxUnhealthy/nodeStartupTimeout/remediationTemplate ⇄ checks and remediation', () => {
    const v1 = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineHealthCheck',
      metadata: META,
      spec: {
        clusterName: 'demo',
        selector: {},
        maxUnhealthy: '40%',
        unhealthyRange: '[1-3]',
        nodeStartupTimeout: '10m',
        unhealthyConditions: [{ type: 'Ready', status: 'Unknown', timeout: '5m' }],
        remediationTemplate: {
          apiVersion: 'x.io/v1',
          kind: 'T',
          name: 't',
          namespace: 'cpaas-system',
        },
      },
      status: { expectedMachines: 3, currentHealthy: 0, remediationsAllowed: 1 },
    };
    const v2 = up(v1) as Record<string, Record<string, unknown>>;
    expect(v2.spec).toEqual({
      clusterName: 'demo',
      selector: {},
      checks: {
        nodeStartupTimeoutSeconds: 600,
        unhealthyNodeConditions: [{ type: 'Ready', status: 'Unknown', timeoutSeconds: 300 }],
      },
      remediation: {
        triggerIf: { unhealthyLessThanOrEqualTo: '40%', unhealthyInRange: '[1-3]' },
        templateRef: { name: 't', kind: 'T', apiVersion: 'x.io/v1' },
      },
    });
    // A v1beta1 0 is "not set" unless the conversion data says 0.
    expect(v2.status).toEqual({ expectedMachines: 3, remediationsAllowed: 1 });
    const back = down(v2) as typeof v1;
    expect(back.spec).toEqual({
      ...v1.spec,
      nodeStartupTimeout: '10m0s',
      unhealthyConditions: [{ type: 'Ready', status: 'Unknown', timeout: '5m0s' }],
    });
    expect((up(back) as typeof v2).status).toEqual(v2.status);
  });
});

describe('KubeadmConfigTemplate and the KubeadmConfigSpec', () => {
  const v1 = {
    apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
    kind: 'KubeadmConfigTemplate',
    metadata: META,
    spec: {
      template: {
        spec: {
          useExperimentalRetryJoin: true,
          clusterConfiguration: {
            kubernetesVersion: 'v1.33.4',
            clusterName: 'demo',
            networking: { podSubnet: '10.0.0.0/16' },
            apiServer: {
              extraArgs: { 'b-flag': '2', 'a-flag': '1' },
              timeoutForControlPlane: '4m',
            },
          },
          initConfiguration: {
            bootstrapTokens: [{ token: 'abcdef.0123456789abcdef', ttl: '24h' }],
          },
          joinConfiguration: {
            nodeRegistration: { kubeletExtraArgs: { 'node-ip': 'NODE_IP' } },
            discovery: {
              timeout: '5m',
              bootstrapToken: { apiServerEndpoint: 'x:6443', unsafeSkipCAVerification: false },
            },
          },
          files: [{ path: '/a', content: 'x', append: false }],
        },
      },
    },
  };

  it('v1beta1 → v1beta2: extraArgs map → list sorted by name, timeouts moved, removed fields dropped', () => {
    const spec = (up(v1) as { spec: { template: { spec: unknown } } }).spec.template.spec;
    expect(spec).toEqual({
      clusterConfiguration: {
        apiServer: {
          extraArgs: [
            { name: 'a-flag', value: '1' },
            { name: 'b-flag', value: '2' },
          ],
        },
      },
      initConfiguration: {
        bootstrapTokens: [{ token: 'abcdef.0123456789abcdef', ttlSeconds: 86400 }],
        timeouts: { controlPlaneComponentHealthCheckSeconds: 240 },
      },
      joinConfiguration: {
        nodeRegistration: { kubeletExtraArgs: [{ name: 'node-ip', value: 'NODE_IP' }] },
        discovery: { bootstrapToken: { apiServerEndpoint: 'x:6443' } },
        timeouts: { controlPlaneComponentHealthCheckSeconds: 240, tlsBootstrapSeconds: 300 },
      },
      files: [{ path: '/a', content: 'x' }],
    });
  });

  it('v1beta2 → v1beta1: a list → a map, a later duplicate winning; timeouts v1beta1 lacks kept in the data and restored', () => {
    const v2 = {
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmConfigTemplate',
      metadata: META,
      spec: {
        template: {
          spec: {
            clusterConfiguration: {
              apiServer: {
                extraArgs: [
                  { name: 'v', value: '1' },
                  { name: 'v', value: '2' },
                  { name: '__proto__', value: 'inert' },
                ],
              },
            },
            initConfiguration: { timeouts: { kubeletHealthCheckSeconds: 30 } },
            joinConfiguration: { timeouts: { tlsBootstrapSeconds: 90 } },
            users: [{ name: 'u', shell: '' }],
          },
        },
      },
    };
    const back = down(v2) as { spec: { template: { spec: Record<string, unknown> } } };
    const spec = back.spec.template.spec;
    const args = (spec.clusterConfiguration as { apiServer: { extraArgs: Record<string, string> } })
      .apiServer.extraArgs;
    // A later duplicate wins; an inert key is dropped, never made a prototype.
    expect(Object.entries(args)).toEqual([['v', '2']]);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(spec).not.toHaveProperty('initConfiguration');
    expect(spec.joinConfiguration).toEqual({ discovery: { timeout: '1m30s' } });
    expect(spec.users).toEqual([{ name: 'u' }]);
    const again = up(back) as typeof v2;
    expect(again.spec.template.spec.initConfiguration).toEqual({
      timeouts: { kubeletHealthCheckSeconds: 30 },
    });
    expect(again.spec.template.spec.joinConfiguration).toEqual({
      timeouts: { tlsBootstrapSeconds: 90 },
    });
  });
});

describe('KubeadmConfig', () => {
  it('status: ready ⇄ initialization.dataSecretCreated, legacy conditions and failures ⇄ deprecated.v1beta1; the spec as a KubeadmConfigSpec', () => {
    const v1 = {
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmConfig',
      metadata: META,
      spec: { joinConfiguration: { nodeRegistration: { kubeletExtraArgs: { a: '1' } } } },
      status: {
        ready: true,
        dataSecretName: 'pool-a-bootstrap',
        observedGeneration: 2,
        failureReason: 'x',
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }],
        v1beta2: {
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'Ready',
              observedGeneration: 2,
              lastTransitionTime: '2026-01-01T00:00:00Z',
            },
          ],
        },
      },
    };
    const v2 = up(v1) as Record<string, Record<string, unknown>>;
    expect(v2.spec).toEqual({
      joinConfiguration: { nodeRegistration: { kubeletExtraArgs: [{ name: 'a', value: '1' }] } },
    });
    expect(v2.status).toEqual({
      dataSecretName: 'pool-a-bootstrap',
      observedGeneration: 2,
      initialization: { dataSecretCreated: true },
      conditions: v1.status.v1beta2.conditions,
      deprecated: { v1beta1: { conditions: v1.status.conditions, failureReason: 'x' } },
    });
    expect(withoutData(down(v2))).toEqual(v1);
    // A KubeadmConfig not ready yet: v1beta1 writes ready: false (no omitempty).
    const fresh = down({ ...v2, status: { dataSecretName: '' } }) as typeof v1;
    expect(fresh.status).toEqual({ ready: false });
  });
});

describe('KubeadmControlPlane', () => {
  const v1 = {
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
    kind: 'KubeadmControlPlane',
    metadata: META,
    spec: {
      replicas: 3,
      version: 'v1.33.4',
      machineTemplate: {
        metadata: { labels: { a: 'b' } },
        infrastructureRef: {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
          kind: 'DCSMachineTemplate',
          name: 'cp',
          namespace: 'cpaas-system',
        },
        nodeDrainTimeout: '2m',
        readinessGates: [{ conditionType: 'X' }],
      },
      rolloutAfter: '2026-05-01T00:00:00Z',
      rolloutBefore: { certificatesExpiryDays: 21 },
      rolloutStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
      remediationStrategy: { maxRetry: 3, retryPeriod: '0s', minHealthyPeriod: '1h' },
      kubeadmConfigSpec: { format: 'ignition' },
    },
    status: {
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      initialized: true,
      ready: true,
      lastRemediation: { machine: 'm', timestamp: '2026-01-01T00:00:00Z', retryCount: 1 },
      v1beta2: { availableReplicas: 3, upToDateReplicas: 3 },
    },
  };
  const v2 = {
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: META,
    spec: {
      replicas: 3,
      version: 'v1.33.4',
      machineTemplate: {
        metadata: { labels: { a: 'b' } },
        spec: {
          infrastructureRef: {
            apiGroup: 'infrastructure.cluster.x-k8s.io',
            kind: 'DCSMachineTemplate',
            name: 'cp',
          },
          readinessGates: [{ conditionType: 'X' }],
          deletion: { nodeDrainTimeoutSeconds: 120 },
        },
      },
      rollout: {
        before: { certificatesExpiryDays: 21 },
        after: '2026-05-01T00:00:00Z',
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
      },
      // retryPeriod 0s is "not set" (Convert_Duration_To_Pointer_int32) without conversion data.
      remediation: { maxRetry: 3, minHealthyPeriodSeconds: 3600 },
      kubeadmConfigSpec: { format: 'ignition' },
    },
    status: {
      replicas: 3,
      lastRemediation: { machine: 'm', retryCount: 1, time: '2026-01-01T00:00:00Z' },
      deprecated: { v1beta1: { readyReplicas: 3, updatedReplicas: 3 } },
      availableReplicas: 3,
      upToDateReplicas: 3,
      initialization: { controlPlaneInitialized: true },
    },
  };

  it('v1beta1 → v1beta2', () => {
    expect(up(v1)).toEqual(v2);
  });

  it('v1beta2 → v1beta1, ready rebuilt from the old ready counter, retryPeriod written as 0s', () => {
    const back = down(v2) as typeof v1;
    expect(withoutData(back)).toEqual({
      ...v1,
      spec: {
        ...v1.spec,
        machineTemplate: {
          ...v1.spec.machineTemplate,
          infrastructureRef: {
            ...v1.spec.machineTemplate.infrastructureRef,
            namespace: 'cpaas-system',
          },
          nodeDrainTimeout: '2m0s',
        },
        remediationStrategy: { maxRetry: 3, minHealthyPeriod: '1h0m0s', retryPeriod: '0s' },
      },
    });
  });
});

describe('lists, versions, the hub', () => {
  it('converts every item of a List', () => {
    const list = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineDeploymentList',
      metadata: { resourceVersion: '9' },
      items: [v1beta1MD, v1beta1MD],
    };
    const out = convertCapiObject(list, 'cluster.x-k8s.io/v1beta2') as unknown as {
      apiVersion: string;
      items: unknown[];
    };
    expect(out.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    expect(out.items).toEqual([v1beta2MD, v1beta2MD]);
  });

  it('names the item of a List whose value is refused', () => {
    const bad = structuredClone(v1beta1MD);
    bad.spec.template.spec.nodeDrainTimeout = 'x';
    const list = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineDeploymentList',
      items: [v1beta1MD, bad],
    };
    expect(() => convertCapiObject(list, 'cluster.x-k8s.io/v1beta2')).toThrow(
      'items[1].spec.template.spec.nodeDrainTimeout: time: invalid duration "x"',
    );
  });

  it('capiConvertible: the nine kinds (and lists) at v1beta1/v1beta2, not the provider kinds', () => {
    expect(CAPI_HUB_VERSION).toBe('v1beta1');
    for (const [apiVersion, kind] of [
      ['cluster.x-k8s.io/v1beta2', 'Cluster'],
      ['cluster.x-k8s.io/v1beta1', 'MachineDeploymentList'],
      ['cluster.x-k8s.io/v1beta2', 'MachineDrainRule'],
      ['bootstrap.cluster.x-k8s.io/v1beta2', 'KubeadmConfig'],
      ['controlplane.cluster.x-k8s.io/v1beta1', 'KubeadmControlPlane'],
    ] as const) {
      expect(capiConvertible(apiVersion, kind)).toBe(true);
    }
    expect(capiConvertible('infrastructure.cluster.x-k8s.io/v1beta1', 'DCSMachine')).toBe(false);
    expect(capiConvertible('cluster.x-k8s.io/v1alpha4', 'Cluster')).toBe(false);
    expect(capiConvertible('cluster.x-k8s.io/v1beta2', 'ClusterClass')).toBe(false);
    expect(capiConvertible('cluster.x-k8s.io/v1beta2', 'constructor')).toBe(false);
  });

  it('toHub converts v1beta2 and copies the hub; fromHub is the identity for the hub version', () => {
    expect(toHub(v1beta2MD)).toEqual(down(v1beta2MD));
    expect(toHub(v1beta1MD)).toEqual(v1beta1MD);
    expect(toHub(v1beta1MD)).not.toBe(v1beta1MD);
    expect(fromHub(v1beta1MD, 'v1beta1')).toEqual(v1beta1MD);
    expect(fromHub(v1beta1MD, 'v1beta2')).toEqual(v1beta2MD);
    const dcs = {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'DCSMachine',
      metadata: META,
      spec: { x: 1 },
    };
    expect(fromHub(dcs, 'v1beta2')).toEqual(dcs);
  });

  it('MachineDrainRule: the same in both versions, no conversion data', () => {
    const mdr = {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineDrainRule',
      metadata: META,
      spec: { drain: { behavior: 'Skip' }, machines: [{ selector: {} }] },
    };
    expect(down(mdr)).toEqual({ ...mdr, apiVersion: 'cluster.x-k8s.io/v1beta1' });
  });

  it("the annotation is Go's json.Marshal: keys sorted, HTML characters escaped", () => {
    const v2 = structuredClone(v1beta2MD);
    v2.spec.machineNaming.template = '<a&b>';
    const text = (down(v2).metadata as { annotations: Record<string, string> }).annotations[
      CONVERSION_DATA_ANNOTATION
    ];
    expect(
      text?.startsWith(
        '{"apiVersion":"cluster.x-k8s.io/v1beta2","kind":"MachineDeployment","spec":{"clusterName"',
      ),
    ).toBe(true);
    expect(text).toContain('"template":"\\u003ca\\u0026b\\u003e"');
  });

  it('refuses conversion data that is not JSON, naming the annotation', () => {
    const v1 = {
      ...v1beta1MD,
      metadata: { ...META, annotations: { [CONVERSION_DATA_ANNOTATION]: '{' } },
    };
    expect(() => up(v1)).toThrow(
      /^metadata\.annotations\[cluster\.x-k8s\.io\/conversion-data\]: the conversion data is not JSON/u,
    );
  });
});

describe('omitzero structs (found seeding a v1.16 cluster)', () => {
  it("a v1beta1 clusterConfiguration holding only what v1beta2 dropped is not sent as {} (its CRD's minProperties: 1)", () => {
    const kcp = aKubeadmControlPlane();
    const spec = (kcp as unknown as { spec: { kubeadmConfigSpec: Record<string, unknown> } }).spec;
    spec.kubeadmConfigSpec.clusterConfiguration = { clusterName: 'prod-east' };
    const v2 = convertCapiObject(kcp, 'controlplane.cluster.x-k8s.io/v1beta2') as unknown as {
      spec: { kubeadmConfigSpec: Record<string, unknown> };
    };
    expect(v2.spec.kubeadmConfigSpec).not.toHaveProperty('clusterConfiguration');
    // As upstream: v1beta2 has nowhere to keep clusterName (only v1beta2 → v1beta1 writes the
    // conversion data), so a v1beta1 client's clusterName does not survive v1beta2 storage.
  });

  it('a v1beta1 machineNamingStrategy without a template gives no machineNaming (MachineNamingSpec is omitzero; minProperties: 1)', () => {
    const template = {
      spec: { clusterName: 'demo', bootstrap: { dataSecretName: 's' }, infrastructureRef: {} },
    };
    for (const naming of [{}, { template: '' }]) {
      for (const kind of ['MachineSet', 'MachineDeployment']) {
        const v2 = up({
          apiVersion: 'cluster.x-k8s.io/v1beta1',
          kind,
          metadata: META,
          spec: { clusterName: 'demo', selector: {}, template, machineNamingStrategy: naming },
        }) as { spec: Record<string, unknown> };
        expect(v2.spec).not.toHaveProperty('machineNaming');
      }
      const kcp = aKubeadmControlPlane() as unknown as { spec: Record<string, unknown> };
      kcp.spec.machineNamingStrategy = naming;
      const v2 = up(kcp) as { spec: Record<string, unknown> };
      expect(v2.spec).not.toHaveProperty('machineNaming');
    }
    // A template is kept, as before.
    const set = up({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineSet',
      metadata: META,
      spec: {
        clusterName: 'demo',
        selector: {},
        template,
        machineNamingStrategy: { template: 'x' },
      },
    }) as { spec: Record<string, unknown> };
    expect(set.spec.machineNaming).toEqual({ template: 'x' });
  });
});
