/**
 * For each route of the BFF's API that takes a body, one body it accepts, and the path
 * parameters that name the demo seed's objects: the fuzzer (test/fuzz.test.ts) replaces one
 * field of them, the timing guard (test/timing-guard.test.ts) grows each to the body limit.
 */
export const PARAMS: Record<string, string> = {
  namespace: 'cpaas-system',
  cluster: 'demo',
  pool: 'demo-md-0',
  name: 'demo-worker-pool',
  kind: 'MachineDeployment',
};

/** Bodies each route accepts; the fuzzer replaces one field of them, or sends anything at all. */
export const BODIES: Record<string, unknown> = {
  'POST /api/v1/session': { token: 'abc' },
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/scale': {
    replicas: 3,
    resourceVersion: '1',
    deleteMachines: ['demo-md-0-abc12-m0'],
  },
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/upgrade': {
    operation: 'bootstrap',
    resourceVersion: '1',
    version: 'v1.33.4',
    machineTemplate: { name: 't', spec: { template: { spec: { cpu: 4 } } } },
    bootstrap: {
      name: 'x-kct',
      spec: { format: 'ignition', files: [{ path: '/a', content: 'b' }] },
    },
  },
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/strategy': {
    resourceVersion: '1',
    maxSurge: 0,
    maxUnavailable: '25%',
    nodeDrainTimeout: '5m',
    nodeDeletionTimeout: '10s',
    nodeVolumeDetachTimeout: '0',
  },
  'POST /api/v1/clusters/{namespace}/{cluster}/control-plane/kubeadm-config': {
    resourceVersion: '1',
    kubeadmConfigSpec: {
      format: 'ignition',
      files: [
        { path: '/etc/kubernetes/patches/kubeletconfiguration0+strategic.json', content: '{}' },
      ],
      preKubeadmCommands: ['echo fuzz'],
      joinConfiguration: { nodeRegistration: { kubeletExtraArgs: { 'node-ip': 'NODE_IP' } } },
    },
  },
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/autoscale': {
    resourceVersion: '1',
    minSize: 1,
    maxSize: 3,
    replicas: 2,
  },
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/healthcheck': {
    operation: 'create',
    unhealthyNodeConditions: [{ type: 'Ready', status: 'Unknown', timeoutSeconds: 300 }],
    nodeStartupTimeoutSeconds: 600,
    maxUnhealthy: '40%',
  },
  'DELETE /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}': { resourceVersion: '1' },
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/restart': {
    resourceVersion: '1',
    at: '2099-01-01T00:00:00Z',
  },
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools': {
    name: 'demo-md-9',
    replicas: 0,
    version: 'v1.33.4',
    machineTemplate: { mode: 'existing', name: 'demo-md-0-template' },
    bootstrap: { mode: 'existing', name: 'demo-md-0-kct' },
    ipPool: { mode: 'existing', name: 'demo-worker-pool', resourceVersion: '1' },
    strategy: { maxSurge: 0, maxUnavailable: 1 },
  },
  'POST /api/v1/namespaces/{namespace}/ippools': {
    name: 'p9',
    entries: [{ ip: '10.0.9.1', mask: '24', gateway: '10.0.9.254', dns: '10.0.0.53' }],
  },
  'PATCH /api/v1/namespaces/{namespace}/ippools/{name}': {
    resourceVersion: '1',
    append: [{ ip: '10.0.9.2', mask: '24', gateway: '10.0.9.254' }],
    remove: ['10.0.0.1'],
  },
};
