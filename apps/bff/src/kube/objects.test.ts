import { describe, expect, it } from 'vitest';
import { createObject, deleteObject, getObject, patchObject } from './objects';
import { speaking, type KubeClient } from './rest';

function recording() {
  const paths: string[] = [];
  const client: KubeClient = {
    request(method, path) {
      paths.push(`${method} ${path}`);
      return Promise.resolve({ status: 200, body: { metadata: { name: 'x' } } });
    },
  };
  return { client, paths };
}

describe('object URLs speak the chosen version of a Cluster API group (issue 23)', () => {
  it('addresses Cluster API kinds in the client’s versions and every other kind in its own', async () => {
    const { client, paths } = recording();
    const v1beta2 = speaking(client, {
      'cluster.x-k8s.io': 'v1beta2',
      'controlplane.cluster.x-k8s.io': 'v1beta2',
    });
    await getObject(v1beta2, 'MachineDeployment', 'ns', 'md');
    await patchObject(v1beta2, 'KubeadmControlPlane', 'ns', 'cp', 'json', []);
    await createObject(v1beta2, 'DCSMachineTemplate', 'ns', { metadata: {} });
    await deleteObject(v1beta2, 'KubeadmConfigTemplate', 'ns', 'b', {});
    await getObject(client, 'Machine', 'ns', 'm');
    expect(paths).toEqual([
      'GET /apis/cluster.x-k8s.io/v1beta2/namespaces/ns/machinedeployments/md',
      'PATCH /apis/controlplane.cluster.x-k8s.io/v1beta2/namespaces/ns/kubeadmcontrolplanes/cp',
      'POST /apis/infrastructure.cluster.x-k8s.io/v1beta1/namespaces/ns/dcsmachinetemplates',
      'DELETE /apis/bootstrap.cluster.x-k8s.io/v1beta1/namespaces/ns/kubeadmconfigtemplates/b',
      'GET /apis/cluster.x-k8s.io/v1beta1/namespaces/ns/machines/m',
    ]);
  });

  it('speaking keeps the bearer token of a token-mode client', () => {
    const base: KubeClient = { request: () => Promise.reject(new Error('no')), bearerToken: 't' };
    expect(speaking(base, {}).bearerToken).toBe('t');
  });
});
