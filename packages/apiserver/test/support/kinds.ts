import type { AdmissionHook, KindRegistration } from '../../src/index';

/** A fake kind with a schema that exercises validation: enum, required, formats, int-or-string. */
export const widgetKind: KindRegistration = {
  group: 'example.com',
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  singular: 'widget',
  scope: 'Namespaced',
  shortNames: ['wd'],
  categories: ['all', 'examples'],
  subresources: { status: true },
  printerColumns: [
    { name: 'Color', type: 'string', jsonPath: '.spec.color' },
    { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
    {
      name: 'Owner',
      type: 'string',
      jsonPath: ".metadata.labels['example\\.com/owner']",
      priority: 1,
    },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  selectableFields: ['spec.color'],
  openAPIV3Schema: {
    type: 'object',
    description: 'Widget is a test kind.',
    properties: {
      spec: {
        type: 'object',
        description: 'The desired widget.',
        required: ['color'],
        properties: {
          color: {
            type: 'string',
            enum: ['red', 'green', 'blue'],
            description: 'The color of the widget.',
          },
          size: { type: 'integer', minimum: 0, default: 1, description: 'How big.' },
          ip: { type: 'string', format: 'ipv4' },
          surge: { 'x-kubernetes-int-or-string': true },
          tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
          parts: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: {
              type: 'object',
              required: ['name'],
              properties: { name: { type: 'string' }, count: { type: 'integer' } },
            },
          },
          extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
      status: {
        type: 'object',
        properties: { phase: { type: 'string' }, observed: { type: 'integer' } },
      },
    },
  },
};

/** A kind shaped like Cluster API's Machine (printer columns, status, a phase field selector). */
export const machineKind: KindRegistration = {
  group: 'cluster.x-k8s.io',
  version: 'v1beta1',
  kind: 'Machine',
  plural: 'machines',
  singular: 'machine',
  scope: 'Namespaced',
  shortNames: ['ma'],
  categories: ['cluster-api'],
  subresources: { status: true },
  selectableFields: ['status.phase'],
  printerColumns: [
    { name: 'Cluster', type: 'string', jsonPath: '.spec.clusterName' },
    { name: 'NodeName', type: 'string', jsonPath: '.status.nodeRef.name' },
    { name: 'ProviderID', type: 'string', jsonPath: '.spec.providerID' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    { name: 'Version', type: 'string', jsonPath: '.spec.version' },
  ],
  openAPIV3Schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['clusterName'],
        properties: {
          clusterName: { type: 'string' },
          version: { type: 'string' },
          providerID: { type: 'string' },
          bootstrap: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          infrastructureRef: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
      status: {
        type: 'object',
        properties: {
          phase: {
            type: 'string',
            enum: [
              'Pending',
              'Provisioning',
              'Provisioned',
              'Running',
              'Deleting',
              'Deleted',
              'Failed',
              'Unknown',
            ],
          },
          nodeRef: { type: 'object', properties: { name: { type: 'string' } } },
          conditions: {
            type: 'array',
            items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          },
        },
      },
    },
  },
};

/** Shaped like Cluster API's MachineDeployment: status and scale subresources. */
export const machineDeploymentKind: KindRegistration = {
  group: 'cluster.x-k8s.io',
  version: 'v1beta1',
  kind: 'MachineDeployment',
  plural: 'machinedeployments',
  singular: 'machinedeployment',
  scope: 'Namespaced',
  shortNames: ['md'],
  categories: ['cluster-api'],
  subresources: { status: true, scale: true },
  scale: {
    specReplicasPath: '.spec.replicas',
    statusReplicasPath: '.status.replicas',
    labelSelectorPath: '.status.selector',
  },
  printerColumns: [
    { name: 'Cluster', type: 'string', jsonPath: '.spec.clusterName' },
    { name: 'Desired', type: 'integer', jsonPath: '.spec.replicas', priority: 10 },
    { name: 'Replicas', type: 'integer', jsonPath: '.status.replicas' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  openAPIV3Schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['clusterName'],
        properties: {
          clusterName: { type: 'string' },
          replicas: { type: 'integer', format: 'int32', minimum: 0 },
          template: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
      status: {
        type: 'object',
        properties: {
          replicas: { type: 'integer' },
          selector: { type: 'string' },
          phase: { type: 'string' },
        },
      },
    },
  },
};

export const testKinds = [widgetKind, machineKind, machineDeploymentKind];

/** Denies widgets whose size exceeds 100, citing a rule id; defaults a label. */
export const widgetHooks: AdmissionHook[] = [
  {
    name: 'default.widgets.example.com',
    match: { kinds: [{ group: 'example.com', kind: 'Widget' }], operations: ['CREATE'] },
    mutate: (req) => {
      if (req.object)
        req.object.metadata.labels = {
          'example.com/defaulted': 'true',
          ...(req.object.metadata.labels ?? {}),
        };
    },
  },
  {
    name: 'validate.widgets.example.com',
    match: { kinds: [{ group: 'example.com', kind: 'Widget' }], operations: ['CREATE', 'UPDATE'] },
    validate: (req) => {
      const spec = req.object?.spec as { size?: number } | undefined;
      if ((spec?.size ?? 0) > 100) {
        return {
          allowed: false,
          rule: 'R-WIDGET-1',
          field: 'spec.size',
          message: `size ${spec?.size ?? 0} exceeds 100`,
        };
      }
      return { allowed: true };
    },
  },
  {
    name: 'protect.widgets.example.com',
    match: { kinds: [{ group: 'example.com', kind: 'Widget' }], operations: ['DELETE'] },
    validate: (req) =>
      req.oldObject?.metadata.labels?.['example.com/protected'] === 'true'
        ? { allowed: false, rule: 'R-WIDGET-2', message: 'protected widgets cannot be deleted' }
        : { allowed: true },
  },
];
