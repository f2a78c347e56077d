/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- responses are arbitrary JSON from the wire */
/**
 * `kindFromCrd`: a CRD manifest (here a trimmed copy of Cluster API v1.14.0's
 * machinedeployments.cluster.x-k8s.io: v1beta1 deprecated, v1beta2 stored, printer columns, the
 * scale subresource) read into a registration the server serves as the real one would.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { kindFromCrd } from '../src/index';
import { startTestServer, type TestServer } from './support/server';

const columns = [
  { description: 'Cluster', jsonPath: '.spec.clusterName', name: 'Cluster', type: 'string' },
  { jsonPath: '.spec.replicas', name: 'Desired', priority: 10, type: 'integer' },
  { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
];
const subresources = {
  scale: {
    labelSelectorPath: '.status.selector',
    specReplicasPath: '.spec.replicas',
    statusReplicasPath: '.status.replicas',
  },
  status: {},
};
const schema = (extra: Record<string, unknown>) => ({
  openAPIV3Schema: {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        required: ['clusterName'],
        properties: { clusterName: { type: 'string' }, replicas: { type: 'integer' }, ...extra },
      },
      status: { type: 'object', properties: { replicas: { type: 'integer' } } },
    },
  },
});
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'machinedeployments.cluster.x-k8s.io' },
  spec: {
    group: 'cluster.x-k8s.io',
    names: {
      categories: ['cluster-api'],
      kind: 'MachineDeployment',
      listKind: 'MachineDeploymentList',
      plural: 'machinedeployments',
      shortNames: ['md'],
      singular: 'machinedeployment',
    },
    scope: 'Namespaced',
    versions: [
      {
        additionalPrinterColumns: columns,
        deprecated: true,
        name: 'v1beta1',
        schema: schema({ minReadySeconds: { type: 'integer' } }),
        served: true,
        storage: false,
        subresources,
      },
      {
        additionalPrinterColumns: columns,
        name: 'v1beta2',
        schema: schema({}),
        selectableFields: [{ jsonPath: '.spec.clusterName' }],
        served: true,
        storage: true,
        subresources,
      },
    ],
  },
};

let t: TestServer | undefined;
afterEach(async () => {
  await t?.server.close();
  t = undefined;
});

describe('kindFromCrd', () => {
  it('reads a CRD in two versions, served as the real server serves it', async () => {
    const reg = kindFromCrd(crd);
    expect(reg.versions.map((v) => [v.name, v.served, v.storage, v.deprecated ?? false])).toEqual([
      ['v1beta1', true, false, true],
      ['v1beta2', true, true, false],
    ]);
    expect(reg.versions[1]?.selectableFields).toEqual(['.spec.clusterName']);
    expect(reg.versions[0]?.scale).toEqual(subresources.scale);
    t = await startTestServer({ kinds: [reg], admission: [] });
    const md = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineDeployment',
      metadata: { name: 'md1' },
      spec: { clusterName: 'c1', replicas: 2 },
    };
    const created = await t.api(
      'POST',
      '/apis/cluster.x-k8s.io/v1beta1/namespaces/default/machinedeployments',
      { body: md },
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('warning')).toBe(
      '299 - "cluster.x-k8s.io/v1beta1 MachineDeployment is deprecated; use cluster.x-k8s.io/v1beta2 MachineDeployment"',
    );
    const group = (await t.api('GET', '/apis/cluster.x-k8s.io')).body;
    expect(group.preferredVersion.version).toBe('v1beta2');
    const scale = await t.api(
      'GET',
      '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/machinedeployments/md1/scale',
    );
    expect(scale.body.spec.replicas).toBe(2);
    const listed = await t.api(
      'GET',
      '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/machinedeployments?fieldSelector=spec.clusterName=c1',
      { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    );
    expect(listed.body.columnDefinitions.map((c: any) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Cluster', 0],
      ['Desired', 10],
      ['Age', 0],
    ]);
    expect(listed.body.rows[0].cells.slice(0, 3)).toEqual(['md1', 'c1', 2]);
  });

  it('names the field of a CRD it cannot read', () => {
    const bad = (change: (c: any) => void) => {
      const c = structuredClone(crd) as any;
      change(c);
      return () => kindFromCrd(c);
    };
    expect(bad((c) => (c.spec.scope = 'Global'))).toThrow(
      'CustomResourceDefinition machinedeployments.cluster.x-k8s.io: spec.scope: Unsupported value',
    );
    expect(bad((c) => delete c.spec.versions[1].name)).toThrow(
      'spec.versions[1].name: Required value',
    );
    expect(bad((c) => (c.spec.versions[0].additionalPrinterColumns[0].type = 'time'))).toThrow(
      'spec.versions[0].additionalPrinterColumns[0].type: Unsupported value',
    );
    expect(bad((c) => delete c.spec.versions[0].subresources.scale.specReplicasPath)).toThrow(
      'spec.versions[0].subresources.scale.specReplicasPath: Required value',
    );
    expect(bad((c) => (c.kind = 'Deployment'))).toThrow('kind: must be CustomResourceDefinition');
  });
});
