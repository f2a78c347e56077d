import { describe, expect, it } from 'vitest';
import { apiVersionOf, findKind, kindTable, kinds, resourcePath } from './kinds';
import { kindSchemas } from './schemas';

describe('the kinds table', () => {
  it('has one entry per kind of DOMAIN.md §1 at its real group and version', () => {
    const expected: Record<string, string> = {
      Cluster: 'cluster.x-k8s.io/v1beta1',
      MachineDeployment: 'cluster.x-k8s.io/v1beta1',
      MachineSet: 'cluster.x-k8s.io/v1beta1',
      Machine: 'cluster.x-k8s.io/v1beta1',
      KubeadmControlPlane: 'controlplane.cluster.x-k8s.io/v1beta1',
      KubeadmConfigTemplate: 'bootstrap.cluster.x-k8s.io/v1beta1',
      KubeadmConfig: 'bootstrap.cluster.x-k8s.io/v1beta1',
      DCSMachineTemplate: 'infrastructure.cluster.x-k8s.io/v1beta1',
      DCSMachine: 'infrastructure.cluster.x-k8s.io/v1beta1',
      DCSIpHostnamePool: 'infrastructure.cluster.x-k8s.io/v1beta1',
      DCSCluster: 'infrastructure.cluster.x-k8s.io/v1beta1',
      Secret: 'v1',
      ConfigMap: 'v1',
      Event: 'v1',
    };
    for (const [kind, apiVersion] of Object.entries(expected)) {
      const info = findKind(kind);
      expect(info && apiVersionOf(info), kind).toBe(apiVersion);
    }
  });

  it('resolves the short names kubectl users know', () => {
    expect(findKind('md')?.kind).toBe('MachineDeployment');
    expect(findKind('ms')?.kind).toBe('MachineSet');
    expect(findKind('ma')?.kind).toBe('Machine');
    expect(findKind('kcp')?.kind).toBe('KubeadmControlPlane');
    expect(findKind('cl')?.kind).toBe('Cluster');
    expect(findKind('machines')?.kind).toBe('Machine');
    expect(findKind('nope')).toBeUndefined();
  });

  it('builds REST paths for namespaced, cluster-scoped and core kinds', () => {
    expect(resourcePath(kindTable.Machine, 'cpaas-system', 'm-1')).toBe(
      '/apis/cluster.x-k8s.io/v1beta1/namespaces/cpaas-system/machines/m-1',
    );
    expect(resourcePath(kindTable.ConfigMap, 'cpaas-system')).toBe(
      '/api/v1/namespaces/cpaas-system/configmaps',
    );
    expect(resourcePath(kindTable.Namespace, 'ignored', 'cpaas-system')).toBe(
      '/api/v1/namespaces/cpaas-system',
    );
  });

  it('has unique plurals and short names, and a schema for every kind but Namespace', () => {
    const plurals = kinds.map((k) => `${k.group}/${k.plural}`);
    expect(new Set(plurals).size).toBe(plurals.length);
    const shorts = kinds.flatMap((k) => k.shortNames);
    expect(new Set(shorts).size).toBe(shorts.length);
    expect(kinds.filter((k) => !(k.kind in kindSchemas)).map((k) => k.kind)).toEqual(['Namespace']);
  });

  it('prints every replica column of the scalable Cluster API kinds from status', () => {
    const md = kindTable.MachineDeployment.printerColumns.map((c) => `${c.name}=${c.jsonPath}`);
    expect(md).toContain('Ready=.status.readyReplicas');
    expect(md).toContain('Unavailable=.status.unavailableReplicas');
    expect(md).toContain('Desired=.spec.replicas');
  });
});
