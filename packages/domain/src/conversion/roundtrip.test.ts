import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secondsToDuration } from './duration';
import { CONVERSION_DATA_ANNOTATION, convertCapiObject, type CapiObjectLike } from './index';

/**
 * Upstream's conversion tests (`util/conversion.FuzzTestFunc`, run by each
 * `api/{core,bootstrap/kubeadm,controlplane/kubeadm}/v1beta1/conversion_test.go`) fill random objects and check two round trips:
 * spoke → hub → spoke (v1beta1 → v1beta2 → v1beta1) and hub → spoke → hub, comparing after the
 * conversion-data annotation is removed. Their fuzz functions first bring each random object to
 * what a real one looks like (refs with the object's namespace and no uid/resourceVersion,
 * timeouts as whole seconds, no empty structs, no `false` where v1beta1 cannot say it, the
 * always-allocated `status.deprecated.v1beta1` of hubMachineSetStatus and its kin…); the
 * arbitraries below generate only such objects, and name upstream's fuzzer func where they
 * normalize. fast-check, 200 runs per property.
 *
 * Covered, both directions: Cluster, MachineDeployment, MachineSet, Machine, MachineHealthCheck,
 * MachineDrainRule, KubeadmConfig, KubeadmConfigTemplate, KubeadmControlPlane — every kind
 * `capiConvertible` accepts. Upstream's fuzz test also runs ClusterClass and MachinePool, which
 * this module does not convert (and KubeadmControlPlaneTemplate, likewise not converted here).
 */

const NS = 'ns-1';
/** As upstream's fuzzers' fakeID and fakeSecret. */
const TOKEN = 'abcdef.abcdef0123456789';
const RUNS = { numRuns: 200 };

/** As upstream's test apiVersionGetter: the version the generated refs name. */
const refApiVersionOf = (group: string): string =>
  group === 'infrastructure.cluster.x-k8s.io' ? `${group}/v1beta1` : `${group}/v1beta2`;

const to = (o: CapiObjectLike, version: string): CapiObjectLike =>
  convertCapiObject(o, `${String(o.apiVersion).split('/')[0] ?? ''}/${version}`, {
    refApiVersionOf,
  });

function withoutData(o: CapiObjectLike): CapiObjectLike {
  const copy = structuredClone(o) as CapiObjectLike & {
    metadata: { annotations?: Record<string, string> };
  };
  const annotations = copy.metadata.annotations;
  if (annotations) {
    Reflect.deleteProperty(annotations, CONVERSION_DATA_ANNOTATION);
    if (Object.keys(annotations).length === 0) delete copy.metadata.annotations;
  }
  return copy;
}

/** An optional-keyed record that is never empty. */
const some = <T extends Record<string, unknown>>(model: {
  [K in keyof T]: fc.Arbitrary<T[K]>;
}): fc.Arbitrary<Partial<T>> =>
  fc.record(model, { requiredKeys: [] }).filter((o) => Object.keys(o).length > 0) as fc.Arbitrary<
    Partial<T>
  >;

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/u);
const seconds = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const duration = seconds.map(secondsToDuration);
const count = fc.integer({ min: 0, max: 50 });
const intOrPercent = fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constantFrom('25%', '0%'));
const time = fc.constantFrom('2026-01-01T00:00:00Z', '2026-05-17T12:30:00Z');
const labels = fc.dictionary(name, name, { maxKeys: 3 });
const metadata = fc.record({ name, namespace: fc.constant(NS), labels });

const legacyCondition = fc.record(
  {
    type: fc.constantFrom('Ready', 'Available', 'MachinesReady'),
    status: fc.constantFrom('True', 'False', 'Unknown'),
    severity: fc.constantFrom('Error', 'Warning', 'Info'),
    reason: name,
    message: fc.string({ maxLength: 8 }),
    lastTransitionTime: time,
  },
  { requiredKeys: ['type', 'status', 'lastTransitionTime'] },
);
const condition = fc.record(
  {
    type: fc.constantFrom('Available', 'Ready', 'UpToDate', 'Deleting'),
    status: fc.constantFrom('True', 'False', 'Unknown'),
    reason: name,
    message: fc.string({ maxLength: 8 }),
    observedGeneration: fc.integer({ min: 1, max: 9 }),
    lastTransitionTime: time,
  },
  { requiredKeys: ['type', 'status', 'reason', 'lastTransitionTime'] },
);
const conditions = (c: fc.Arbitrary<unknown>) => fc.array(c, { minLength: 1, maxLength: 3 });

// --- v1beta1 (spoke) -----------------------------------------------------------------------

const spokeRef = (group: string, kind: string) =>
  fc.record({
    apiVersion: fc.constant(refApiVersionOf(group)),
    kind: fc.constant(kind),
    namespace: fc.constant(NS),
    name,
  });

const spokeMachineSpec = fc.record(
  {
    clusterName: name,
    version: fc.constantFrom('v1.33.4', 'v1.34.1'),
    providerID: name,
    failureDomain: name,
    bootstrap: some({
      configRef: spokeRef('bootstrap.cluster.x-k8s.io', 'KubeadmConfigTemplate'),
      dataSecretName: name,
    }),
    infrastructureRef: spokeRef('infrastructure.cluster.x-k8s.io', 'DCSMachineTemplate'),
    nodeDrainTimeout: duration,
    nodeVolumeDetachTimeout: duration,
    nodeDeletionTimeout: duration,
    readinessGates: fc.array(fc.record({ conditionType: name }), { minLength: 1, maxLength: 2 }),
  },
  { requiredKeys: ['clusterName', 'bootstrap', 'infrastructureRef'] },
);

const spokeStrategy = some({
  type: fc.constantFrom('RollingUpdate', 'OnDelete'),
  rollingUpdate: some({
    maxSurge: intOrPercent,
    maxUnavailable: intOrPercent,
    deletePolicy: fc.constantFrom('Random', 'Newest', 'Oldest'),
  }),
  remediation: fc.record({ maxInFlight: intOrPercent }),
});

const spokeMD = fc.record({
  apiVersion: fc.constant('cluster.x-k8s.io/v1beta1'),
  kind: fc.constant('MachineDeployment'),
  metadata,
  spec: fc.record(
    {
      clusterName: name,
      replicas: count,
      selector: fc.record({ matchLabels: labels }),
      template: fc.record({ metadata: fc.record({ labels }), spec: spokeMachineSpec }),
      strategy: spokeStrategy,
      rolloutAfter: time,
      minReadySeconds: count,
      paused: fc.constant(true),
      machineNamingStrategy: fc.record({ template: name }),
    },
    { requiredKeys: ['clusterName', 'selector', 'template'] },
  ),
  status: fc.record(
    {
      replicas: count,
      readyReplicas: count,
      availableReplicas: count,
      updatedReplicas: count,
      unavailableReplicas: count,
      phase: fc.constantFrom('Running', 'ScalingUp'),
      observedGeneration: count,
      conditions: conditions(legacyCondition),
      v1beta2: some({
        conditions: conditions(condition),
        readyReplicas: count,
        availableReplicas: count,
        upToDateReplicas: count,
      }),
    },
    { requiredKeys: [] },
  ),
});

const spokeMachine = fc.record({
  apiVersion: fc.constant('cluster.x-k8s.io/v1beta1'),
  kind: fc.constant('Machine'),
  metadata,
  spec: spokeMachineSpec,
  status: fc.record(
    {
      bootstrapReady: fc.boolean(),
      infrastructureReady: fc.boolean(),
      nodeRef: fc.record({ apiVersion: fc.constant('v1'), kind: fc.constant('Node'), name }),
      phase: fc.constantFrom('Running', 'Deleting', 'Provisioned'),
      failureReason: name,
      conditions: conditions(legacyCondition),
      v1beta2: fc.record({ conditions: conditions(condition) }),
      deletion: some({ nodeDrainStartTime: time, waitForNodeVolumeDetachStartTime: time }),
    },
    { requiredKeys: ['bootstrapReady', 'infrastructureReady'] },
  ),
});

const spokeKubeadmSpec = fc.record(
  {
    format: fc.constantFrom('cloud-config', 'ignition'),
    clusterConfiguration: fc.record({
      apiServer: some({
        extraArgs: fc.dictionary(name, name, { minKeys: 1, maxKeys: 3 }),
        certSANs: fc.array(name, { minLength: 1, maxLength: 2 }),
      }),
    }),
    // spokeBootstrapToken: a ttl of whole seconds; spoke/hubBootstrapTokenString: a fixed token.
    initConfiguration: fc.record({
      bootstrapTokens: fc.array(
        fc.record(
          { token: fc.constant(TOKEN), ttl: duration, groups: fc.array(name, { maxLength: 2 }) },
          { requiredKeys: ['token'] },
        ),
        { minLength: 1, maxLength: 2 },
      ),
    }),
    joinConfiguration: some({
      nodeRegistration: fc.record({
        kubeletExtraArgs: fc.dictionary(name, name, { minKeys: 1, maxKeys: 3 }),
      }),
      discovery: some({
        timeout: duration,
        // bool,omitempty in v1beta1: only `true` is said (a `false` is not written).
        bootstrapToken: fc.record({
          token: fc.constant(TOKEN),
          apiServerEndpoint: fc.constant('10.0.0.1:6443'),
          unsafeSkipCAVerification: fc.constant(true),
        }),
      }),
    }),
    ignition: fc.record({ containerLinuxConfig: fc.record({ strict: fc.constant(true) }) }),
    files: fc.array(
      fc.record({ path: name.map((n) => `/${n}`), content: name, append: fc.constant(true) }),
      { minLength: 1, maxLength: 2 },
    ),
    preKubeadmCommands: fc.array(name, { maxLength: 2 }),
  },
  { requiredKeys: [] },
);

const spokeKCT = fc.record({
  apiVersion: fc.constant('bootstrap.cluster.x-k8s.io/v1beta1'),
  kind: fc.constant('KubeadmConfigTemplate'),
  metadata,
  spec: fc.record({ template: fc.record({ spec: spokeKubeadmSpec }) }),
});

const spokeKCP = fc.record({
  apiVersion: fc.constant('controlplane.cluster.x-k8s.io/v1beta1'),
  kind: fc.constant('KubeadmControlPlane'),
  metadata,
  spec: fc.record(
    {
      replicas: fc.constantFrom(1, 3),
      version: fc.constantFrom('v1.33.4', 'v1.34.1'),
      machineTemplate: fc.record(
        {
          metadata: fc.record({ labels }),
          infrastructureRef: spokeRef('infrastructure.cluster.x-k8s.io', 'DCSMachineTemplate'),
          nodeDrainTimeout: duration,
          nodeDeletionTimeout: duration,
        },
        { requiredKeys: ['infrastructureRef'] },
      ),
      rolloutAfter: time,
      rolloutBefore: fc.record({ certificatesExpiryDays: fc.integer({ min: 7, max: 90 }) }),
      rolloutStrategy: fc.record({
        type: fc.constant('RollingUpdate'),
        rollingUpdate: fc.record({ maxSurge: fc.constantFrom(0, 1) }),
      }),
      // A non-zero retryPeriod: "0s" is "not set" and does not round trip (upstream's fuzzer too).
      remediationStrategy: fc.record(
        {
          maxRetry: count,
          retryPeriod: fc.integer({ min: 1, max: 3600 }).map(secondsToDuration),
          minHealthyPeriod: duration,
        },
        { requiredKeys: ['retryPeriod'] },
      ),
      kubeadmConfigSpec: spokeKubeadmSpec,
    },
    { requiredKeys: ['version', 'machineTemplate', 'kubeadmConfigSpec'] },
  ),
  status: fc.record(
    {
      replicas: count,
      updatedReplicas: count,
      readyReplicas: count,
      unavailableReplicas: count,
      initialized: fc.boolean(),
      version: fc.constant('v1.33.4'),
      lastRemediation: fc.record({ machine: name, timestamp: time, retryCount: count }),
      conditions: conditions(legacyCondition),
      v1beta2: some({ conditions: conditions(condition), availableReplicas: count }),
    },
    { requiredKeys: ['initialized', 'readyReplicas'] },
  ),
});

const spokeMHC = fc.record({
  apiVersion: fc.constant('cluster.x-k8s.io/v1beta1'),
  kind: fc.constant('MachineHealthCheck'),
  metadata,
  spec: fc.record(
    {
      clusterName: name,
      selector: fc.record({ matchLabels: labels }),
      maxUnhealthy: intOrPercent,
      unhealthyRange: fc.constant('[1-3]'),
      nodeStartupTimeout: duration,
      unhealthyConditions: fc.array(
        fc.record({
          type: fc.constant('Ready'),
          status: fc.constantFrom('False', 'Unknown'),
          timeout: duration,
        }),
        { minLength: 1, maxLength: 2 },
      ),
    },
    { requiredKeys: ['clusterName', 'selector'] },
  ),
  status: fc.record(
    { expectedMachines: fc.integer({ min: 1, max: 9 }), targets: fc.array(name, { maxLength: 2 }) },
    { requiredKeys: [] },
  ),
});

const spokeCluster = fc.record({
  apiVersion: fc.constant('cluster.x-k8s.io/v1beta1'),
  kind: fc.constant('Cluster'),
  metadata,
  spec: fc.record(
    {
      controlPlaneRef: spokeRef('controlplane.cluster.x-k8s.io', 'KubeadmControlPlane'),
      infrastructureRef: spokeRef('infrastructure.cluster.x-k8s.io', 'DCSCluster'),
      paused: fc.constant(true),
      topology: fc.record(
        {
          class: name,
          classNamespace: name,
          version: fc.constantFrom('v1.33.4', 'v1.34.1'),
          controlPlane: some({
            replicas: fc.constantFrom(1, 3),
            nodeDrainTimeout: duration,
            machineHealthCheck: some({
              enable: fc.boolean(),
              maxUnhealthy: intOrPercent,
              nodeStartupTimeout: duration,
              unhealthyConditions: fc.array(
                fc.record({
                  type: fc.constant('Ready'),
                  status: fc.constant('False'),
                  timeout: duration,
                }),
                { minLength: 1, maxLength: 2 },
              ),
            }),
          }),
          workers: fc.record({
            machineDeployments: fc.array(
              fc.record(
                { class: name, name, strategy: spokeStrategy, nodeDrainTimeout: duration },
                { requiredKeys: ['class', 'name'] },
              ),
              { minLength: 1, maxLength: 2 },
            ),
          }),
        },
        { requiredKeys: ['class', 'version'] },
      ),
    },
    { requiredKeys: [] },
  ),
  status: fc.record(
    {
      controlPlaneReady: fc.boolean(),
      infrastructureReady: fc.boolean(),
      phase: fc.constantFrom('Provisioned', 'Provisioning'),
      failureDomains: fc.dictionary(
        name,
        fc.record({ controlPlane: fc.constant(true) }, { requiredKeys: [] }),
        { maxKeys: 3 },
      ),
      v1beta2: some({
        conditions: conditions(condition),
        controlPlane: fc.record({ replicas: count }),
      }),
    },
    { requiredKeys: ['controlPlaneReady', 'infrastructureReady'] },
  ),
});

const spokeMS = fc.record({
  apiVersion: fc.constant('cluster.x-k8s.io/v1beta1'),
  kind: fc.constant('MachineSet'),
  metadata,
  spec: fc.record(
    {
      clusterName: name,
      replicas: count,
      selector: fc.record({ matchLabels: labels }),
      template: fc.record({ metadata: fc.record({ labels }), spec: spokeMachineSpec }),
      deletePolicy: fc.constantFrom('Random', 'Newest', 'Oldest'),
      // int32,omitempty: a v1beta1 0 is not written, so only non-zero values say anything.
      minReadySeconds: fc.integer({ min: 1, max: 600 }),
      machineNamingStrategy: fc.record({ template: name }),
    },
    { requiredKeys: ['clusterName', 'selector', 'template'] },
  ),
  // spokeMachineSetStatus: an empty v1beta2 block is dropped (`some`).
  status: fc.record(
    {
      selector: name,
      replicas: count,
      fullyLabeledReplicas: count,
      readyReplicas: count,
      availableReplicas: count,
      observedGeneration: count,
      failureReason: fc.constantFrom('InvalidConfiguration', 'CreateError'),
      failureMessage: name,
      conditions: conditions(legacyCondition),
      v1beta2: some({
        conditions: conditions(condition),
        readyReplicas: count,
        availableReplicas: count,
        upToDateReplicas: count,
      }),
    },
    { requiredKeys: [] },
  ),
});

const spokeKC = fc.record({
  apiVersion: fc.constant('bootstrap.cluster.x-k8s.io/v1beta1'),
  kind: fc.constant('KubeadmConfig'),
  metadata,
  spec: spokeKubeadmSpec,
  // v1beta1's `ready` is a bool without omitempty: always written, so always there.
  // spokeKubeadmConfigStatus: an empty v1beta2 block is dropped.
  status: fc.record(
    {
      ready: fc.boolean(),
      dataSecretName: name,
      observedGeneration: count,
      failureReason: name,
      failureMessage: name,
      conditions: conditions(legacyCondition),
      v1beta2: fc.record({ conditions: conditions(condition) }),
    },
    { requiredKeys: ['ready'] },
  ),
});

const labelSelector = some({
  matchLabels: fc.dictionary(name, name, { minKeys: 1, maxKeys: 2 }),
  matchExpressions: fc.array(
    fc.record({
      key: name,
      operator: fc.constantFrom('In', 'NotIn'),
      values: fc.array(name, { minLength: 1, maxLength: 2 }),
    }),
    { minLength: 1, maxLength: 2 },
  ),
});

/** The same fields in both versions: MachineDrainRule converts by copying (no conversion data). */
const drainRuleSpec = fc.record(
  {
    drain: fc.record(
      {
        behavior: fc.constantFrom('Drain', 'Skip', 'WaitCompleted'),
        order: fc.integer({ min: -100, max: 100 }),
      },
      { requiredKeys: ['behavior'] },
    ),
    machines: fc.array(
      fc.record({ selector: labelSelector, clusterSelector: labelSelector }, { requiredKeys: [] }),
      {
        maxLength: 2,
      },
    ),
    pods: fc.array(
      fc.record(
        { selector: labelSelector, namespaceSelector: labelSelector },
        { requiredKeys: [] },
      ),
      {
        maxLength: 2,
      },
    ),
  },
  { requiredKeys: ['drain'] },
);

const drainRule = (version: string) =>
  fc.record({
    apiVersion: fc.constant(`cluster.x-k8s.io/${version}`),
    kind: fc.constant('MachineDrainRule'),
    metadata,
    spec: drainRuleSpec,
  });

// --- v1beta2 (hub) -------------------------------------------------------------------------

const hubRef = (group: string, kind: string) =>
  fc.record({ apiGroup: fc.constant(group), kind: fc.constant(kind), name });

const hubMachineSpec = fc.record(
  {
    clusterName: name,
    version: fc.constantFrom('v1.33.4', 'v1.34.1'),
    bootstrap: fc.record({
      configRef: hubRef('bootstrap.cluster.x-k8s.io', 'KubeadmConfigTemplate'),
    }),
    infrastructureRef: hubRef('infrastructure.cluster.x-k8s.io', 'DCSMachineTemplate'),
    deletion: some({
      nodeDrainTimeoutSeconds: seconds,
      nodeVolumeDetachTimeoutSeconds: seconds,
      nodeDeletionTimeoutSeconds: seconds,
    }),
    minReadySeconds: count,
  },
  { requiredKeys: ['clusterName', 'bootstrap', 'infrastructureRef'] },
);

const hubMD = fc.record({
  apiVersion: fc.constant('cluster.x-k8s.io/v1beta2'),
  kind: fc.constant('MachineDeployment'),
  metadata,
  spec: fc.record(
    {
      clusterName: name,
      replicas: count,
      selector: fc.record({ matchLabels: labels }),
      template: fc.record({ metadata: fc.record({ labels }), spec: hubMachineSpec }),
      rollout: some({
        after: time,
        strategy: some({
          type: fc.constantFrom('RollingUpdate', 'OnDelete'),
          rollingUpdate: some({ maxSurge: intOrPercent, maxUnavailable: intOrPercent }),
        }),
      }),
      deletion: fc.record({ order: fc.constantFrom('Random', 'Newest', 'Oldest') }),
      remediation: fc.record({ maxInFlight: intOrPercent }),
      machineNaming: fc.record({ template: name }),
      paused: fc.boolean(),
    },
    { requiredKeys: ['clusterName', 'selector', 'template'] },
  ),
  status: fc.record(
    {
      replicas: count,
      readyReplicas: count,
      availableReplicas: count,
      upToDateReplicas: count,
      conditions: conditions(condition),
      // Upstream allocates deprecated.v1beta1 on every v1beta1 → v1beta2 conversion.
      deprecated: fc.record({
        v1beta1: fc.record(
          { conditions: conditions(legacyCondition), updatedReplicas: count, readyReplicas: count },
          { requiredKeys: [] },
        ),
      }),
    },
    { requiredKeys: ['deprecated'] },
  ),
});

const hubMachine = fc.record({
  apiVersion: fc.constant('cluster.x-k8s.io/v1beta2'),
  kind: fc.constant('Machine'),
  metadata,
  spec: hubMachineSpec,
  status: fc.record(
    {
      phase: fc.constantFrom('Running', 'Updating', 'Deleting'),
      nodeRef: fc.record({ name }),
      initialization: some({
        bootstrapDataSecretCreated: fc.boolean(),
        infrastructureProvisioned: fc.boolean(),
      }),
      conditions: conditions(condition),
      deprecated: fc.record({
        v1beta1: some({ conditions: conditions(legacyCondition), failureMessage: name }),
      }),
    },
    { requiredKeys: [] },
  ),
});

/** Sorted and unique: ConvertToArgs sorts a map, so only a sorted list round trips. */
const sortedArgs = fc
  .uniqueArray(name, { minLength: 1, maxLength: 3 })
  .map((ns) => ns.sort().map((n) => ({ name: n, value: `${n}-v` })));

const hubKubeadmSpec = fc.record(
  {
    format: fc.constantFrom('cloud-config', 'ignition'),
    clusterConfiguration: fc.record({
      apiServer: fc.record({
        extraArgs: sortedArgs,
      }),
    }),
    initConfiguration: some({
      timeouts: some({
        controlPlaneComponentHealthCheckSeconds: seconds,
        kubeletHealthCheckSeconds: seconds,
        discoverySeconds: seconds,
      }),
      bootstrapTokens: fc.array(
        fc.record({ token: fc.constant(TOKEN), ttlSeconds: seconds }, { requiredKeys: ['token'] }),
        { minLength: 1, maxLength: 2 },
      ),
      nodeRegistration: fc.record({ kubeletExtraArgs: sortedArgs }),
    }),
    joinConfiguration: some({
      timeouts: some({ tlsBootstrapSeconds: seconds, etcdAPICallSeconds: seconds }),
      // *bool in v1beta2: a `false` comes back through the conversion data.
      discovery: fc.record({
        bootstrapToken: fc.record({
          token: fc.constant(TOKEN),
          apiServerEndpoint: fc.constant('10.0.0.1:6443'),
          unsafeSkipCAVerification: fc.boolean(),
        }),
      }),
    }),
    ignition: fc.record({ containerLinuxConfig: fc.record({ strict: fc.boolean() }) }),
    files: fc
      .array(fc.record({ path: name.map((n) => `/${n}`), content: name, append: fc.boolean() }), {
        minLength: 1,
        maxLength: 2,
      })
      .map((fs) => fs.filter((f, i) => fs.findIndex((g) => g.path === f.path) === i)),
  },
  { requiredKeys: [] },
);

/**
 * v1beta1 has one control-plane health-check timeout (`apiServer.timeoutForControlPlane`), which
 * upstream's ConvertTo writes to both init's and join's timeouts: a hub with init's set holds the
 * same in join's (as upstream's hub fuzzer makes it).
 */
const hubKubeadmSpecReal = hubKubeadmSpec.map((spec) => {
  const cp = spec.initConfiguration?.timeouts?.controlPlaneComponentHealthCheckSeconds;
  if (cp === undefined) return spec;
  const join = spec.joinConfiguration ?? {};
  return {
    ...spec,
    joinConfiguration: {
      ...join,
      timeouts: { ...join.timeouts, controlPlaneComponentHealthCheckSeconds: cp },
    },
  };
});

const hubKCT = fc.record({
  apiVersion: fc.constant('bootstrap.cluster.x-k8s.io/v1beta2'),
  kind: fc.constant('KubeadmConfigTemplate'),
  metadata,
  spec: fc.record({ template: fc.record({ spec: hubKubeadmSpecReal }) }),
});

const hubKCP = fc.record({
  apiVersion: fc.constant('controlplane.cluster.x-k8s.io/v1beta2'),
  kind: fc.constant('KubeadmControlPlane'),
  metadata,
  spec: fc.record(
    {
      replicas: fc.constantFrom(1, 3),
      version: fc.constantFrom('v1.33.4', 'v1.34.1'),
      machineTemplate: fc.record({
        spec: fc.record(
          {
            infrastructureRef: hubRef('infrastructure.cluster.x-k8s.io', 'DCSMachineTemplate'),
            deletion: some({ nodeDrainTimeoutSeconds: seconds }),
          },
          { requiredKeys: ['infrastructureRef'] },
        ),
      }),
      remediation: some({
        maxRetry: count,
        retryPeriodSeconds: seconds,
        minHealthyPeriodSeconds: seconds,
      }),
      rollout: some({
        after: time,
        before: fc.record({ certificatesExpiryDays: fc.integer({ min: 7, max: 90 }) }),
        strategy: fc.record({
          type: fc.constant('RollingUpdate'),
          rollingUpdate: fc.record({ maxSurge: fc.constantFrom(0, 1) }),
        }),
      }),
      kubeadmConfigSpec: hubKubeadmSpecReal,
    },
    { requiredKeys: ['version', 'machineTemplate', 'kubeadmConfigSpec'] },
  ),
  status: fc.record(
    {
      replicas: count,
      availableReplicas: count,
      upToDateReplicas: count,
      initialization: fc.record({ controlPlaneInitialized: fc.boolean() }),
      conditions: conditions(condition),
      deprecated: fc.record({ v1beta1: fc.record({ readyReplicas: count }, { requiredKeys: [] }) }),
    },
    { requiredKeys: ['deprecated'] },
  ),
});

/**
 * MachineSet's ConvertTo makes a v1beta1 0 (or absent) minReadySeconds nil and restores nothing
 * from the conversion data, so a hub `minReadySeconds: 0` comes back unset, in upstream as here;
 * upstream's fuzzer (random int32s) practically never draws that 0.
 */
const hubMSTemplateSpec = hubMachineSpec.map((spec) =>
  spec.minReadySeconds === 0 ? { ...spec, minReadySeconds: 30 } : spec,
);

const hubMS = fc.record({
  apiVersion: fc.constant('cluster.x-k8s.io/v1beta2'),
  kind: fc.constant('MachineSet'),
  metadata,
  spec: fc.record(
    {
      clusterName: name,
      replicas: count,
      selector: fc.record({ matchLabels: labels }),
      template: fc.record({ metadata: fc.record({ labels }), spec: hubMSTemplateSpec }),
      deletion: fc.record({ order: fc.constantFrom('Random', 'Newest', 'Oldest') }),
      machineNaming: fc.record({ template: name }),
    },
    { requiredKeys: ['clusterName', 'selector', 'template'] },
  ),
  status: fc.record(
    {
      selector: name,
      replicas: count,
      readyReplicas: count,
      availableReplicas: count,
      upToDateReplicas: count,
      observedGeneration: count,
      conditions: conditions(condition),
      // hubMachineSetStatus: deprecated.v1beta1 is always there (ConvertTo allocates it).
      deprecated: fc.record({
        v1beta1: fc.record(
          {
            conditions: conditions(legacyCondition),
            availableReplicas: count,
            fullyLabeledReplicas: count,
            readyReplicas: count,
            failureReason: fc.constantFrom('InvalidConfiguration', 'CreateError'),
            failureMessage: name,
          },
          { requiredKeys: [] },
        ),
      }),
    },
    { requiredKeys: ['deprecated'] },
  ),
});

const hubKC = fc.record({
  apiVersion: fc.constant('bootstrap.cluster.x-k8s.io/v1beta2'),
  kind: fc.constant('KubeadmConfig'),
  metadata,
  spec: hubKubeadmSpecReal,
  status: fc.record(
    {
      dataSecretName: name,
      observedGeneration: count,
      // hubKubeadmConfigStatus: no empty initialization; deprecated.v1beta1 always there.
      initialization: fc.record({ dataSecretCreated: fc.boolean() }),
      conditions: conditions(condition),
      deprecated: fc.record({
        v1beta1: fc.record(
          { conditions: conditions(legacyCondition), failureReason: name, failureMessage: name },
          { requiredKeys: [] },
        ),
      }),
    },
    { requiredKeys: ['deprecated'] },
  ),
});

const hubUnhealthy = fc.array(
  fc.record({
    type: fc.constantFrom('Ready', 'MemoryPressure'),
    status: fc.constantFrom('False', 'Unknown'),
    timeoutSeconds: seconds,
  }),
  { minLength: 1, maxLength: 2 },
);

const hubMHC = fc.record({
  apiVersion: fc.constant('cluster.x-k8s.io/v1beta2'),
  kind: fc.constant('MachineHealthCheck'),
  metadata,
  spec: fc.record(
    {
      clusterName: name,
      selector: fc.record({ matchLabels: labels }),
      checks: some({
        nodeStartupTimeoutSeconds: seconds,
        unhealthyNodeConditions: hubUnhealthy,
        unhealthyMachineConditions: hubUnhealthy,
      }),
      remediation: some({
        triggerIf: some({
          unhealthyLessThanOrEqualTo: intOrPercent,
          unhealthyInRange: fc.constant('[1-3]'),
        }),
        templateRef: fc.record({
          apiVersion: fc.constant('infrastructure.cluster.x-k8s.io/v1beta1'),
          kind: fc.constant('DCSRemediationTemplate'),
          name,
        }),
      }),
    },
    { requiredKeys: ['clusterName', 'selector'] },
  ),
  status: fc.record(
    {
      // *int32: a 0 comes back through the conversion data (Convert_int32_To_Pointer_int32).
      expectedMachines: count,
      currentHealthy: count,
      remediationsAllowed: count,
      observedGeneration: count,
      targets: fc.array(name, { minLength: 1, maxLength: 2 }),
      conditions: conditions(condition),
      // hubMachineHealthCheckStatus: an empty deprecated block is dropped.
      deprecated: fc.record({ v1beta1: fc.record({ conditions: conditions(legacyCondition) }) }),
    },
    { requiredKeys: [] },
  ),
});

/** A topology's healthCheck; a MachineDeployment's may hold remediation.maxInFlight too. */
const hubHealthCheck = (md: boolean) =>
  some({
    enabled: fc.boolean(),
    checks: some({
      nodeStartupTimeoutSeconds: seconds,
      unhealthyNodeConditions: hubUnhealthy,
      unhealthyMachineConditions: hubUnhealthy,
    }),
    remediation: some({
      triggerIf: some({
        unhealthyLessThanOrEqualTo: intOrPercent,
        unhealthyInRange: fc.constant('[1-3]'),
      }),
      templateRef: fc.record({
        apiVersion: fc.constant('infrastructure.cluster.x-k8s.io/v1beta1'),
        kind: fc.constant('DCSRemediationTemplate'),
        name,
      }),
      ...(md ? { maxInFlight: intOrPercent } : {}),
    }),
  });

const hubCluster = fc.record({
  apiVersion: fc.constant('cluster.x-k8s.io/v1beta2'),
  kind: fc.constant('Cluster'),
  metadata,
  spec: fc.record(
    {
      controlPlaneRef: hubRef('controlplane.cluster.x-k8s.io', 'KubeadmControlPlane'),
      infrastructureRef: hubRef('infrastructure.cluster.x-k8s.io', 'DCSCluster'),
      paused: fc.boolean(),
      topology: fc.record(
        {
          classRef: fc.record({ name, namespace: name }, { requiredKeys: ['name'] }),
          version: fc.constantFrom('v1.33.4', 'v1.34.1'),
          controlPlane: some({
            replicas: fc.constantFrom(1, 3),
            deletion: some({
              nodeDrainTimeoutSeconds: seconds,
              nodeDeletionTimeoutSeconds: seconds,
            }),
            healthCheck: hubHealthCheck(false),
          }),
          workers: fc.record({
            machineDeployments: fc.array(
              fc.record(
                {
                  class: name,
                  name,
                  replicas: count,
                  deletion: some({
                    order: fc.constantFrom('Random', 'Newest', 'Oldest'),
                    nodeDrainTimeoutSeconds: seconds,
                  }),
                  rollout: fc.record({
                    strategy: some({
                      type: fc.constantFrom('RollingUpdate', 'OnDelete'),
                      rollingUpdate: some({ maxSurge: intOrPercent, maxUnavailable: intOrPercent }),
                    }),
                  }),
                  healthCheck: hubHealthCheck(true),
                },
                { requiredKeys: ['class', 'name'] },
              ),
              { minLength: 1, maxLength: 2 },
            ),
          }),
        },
        { requiredKeys: ['classRef', 'version'] },
      ),
    },
    { requiredKeys: [] },
  ),
  status: fc.record(
    {
      phase: fc.constantFrom('Provisioned', 'Provisioning'),
      observedGeneration: count,
      // hubClusterStatus: no empty initialization.
      initialization: some({
        controlPlaneInitialized: fc.boolean(),
        infrastructureProvisioned: fc.boolean(),
      }),
      controlPlane: some({ replicas: count, readyReplicas: count, upToDateReplicas: count }),
      workers: some({ replicas: count, availableReplicas: count }),
      // A list sorted by name, as ConvertTo builds it from v1beta1's map.
      failureDomains: fc
        .uniqueArray(name, { minLength: 1, maxLength: 3 })
        .chain((names) =>
          fc.tuple(
            ...names
              .sort()
              .map((n) => fc.record({ name: fc.constant(n), controlPlane: fc.boolean() })),
          ),
        ),
      conditions: conditions(condition),
      deprecated: fc.record({
        v1beta1: some({
          conditions: conditions(legacyCondition),
          failureReason: name,
          failureMessage: name,
        }),
      }),
    },
    { requiredKeys: [] },
  ),
});

describe('spoke → hub → spoke (v1beta1 → v1beta2 → v1beta1) gives the spoke back', () => {
  const cases: [string, fc.Arbitrary<CapiObjectLike>][] = [
    ['MachineDeployment', spokeMD],
    ['Machine', spokeMachine],
    ['KubeadmConfigTemplate', spokeKCT],
    ['KubeadmControlPlane', spokeKCP],
    ['MachineHealthCheck', spokeMHC],
    ['Cluster', spokeCluster],
    ['MachineSet', spokeMS],
    ['KubeadmConfig', spokeKC],
    ['MachineDrainRule', drainRule('v1beta1')],
  ];
  it.each(cases)('%s', (_kind, arb) => {
    fc.assert(
      fc.property(arb, (spoke) => {
        expect(withoutData(to(to(spoke, 'v1beta2'), 'v1beta1'))).toEqual(normalizeSpoke(spoke));
      }),
      RUNS,
    );
  });
});

describe('hub → spoke → hub (v1beta2 → v1beta1 → v1beta2) gives the hub back', () => {
  const cases: [string, fc.Arbitrary<CapiObjectLike>][] = [
    ['MachineDeployment', hubMD],
    ['Machine', hubMachine],
    ['KubeadmConfigTemplate', hubKCT],
    ['KubeadmControlPlane', hubKCP],
    ['MachineSet', hubMS],
    ['KubeadmConfig', hubKC],
    ['MachineHealthCheck', hubMHC],
    ['Cluster', hubCluster],
    ['MachineDrainRule', drainRule('v1beta2')],
  ];
  it.each(cases)('%s', (_kind, arb) => {
    fc.assert(
      fc.property(arb, (hub) => {
        expect(to(to(hub, 'v1beta1'), 'v1beta2')).toEqual(hub);
      }),
      RUNS,
    );
  });
  // The conversion works on its own copy in place (issue 28): never on the object it was given.
  it.each(cases)('%s: the hub converted is left as it was', (_kind, arb) => {
    fc.assert(
      fc.property(arb, (hub) => {
        const given = deepFreeze(structuredClone(hub));
        expect(to(given, 'v1beta1')).toEqual(to(structuredClone(hub), 'v1beta1'));
        expect(given).toEqual(hub);
      }),
      RUNS,
    );
  });
});

/** Frozen all the way down: a write into it throws (modules are strict). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * What a v1beta1 object comes back as even in Go: v1beta1's bool fields without omitempty are
 * written (Machine and Cluster readiness, KCP's initialized and ready), and an empty
 * `failureDomains` map has nothing to say.
 */
function normalizeSpoke(o: CapiObjectLike): CapiObjectLike {
  const copy = structuredClone(o) as CapiObjectLike & { status?: Record<string, unknown> };
  if (copy.kind === 'KubeadmControlPlane' && copy.status) {
    copy.status.ready =
      typeof copy.status.readyReplicas === 'number' && copy.status.readyReplicas > 0;
  }
  return copy;
}
