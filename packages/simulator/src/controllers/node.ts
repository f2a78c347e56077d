import { normalizeKubeVersion, type Machine } from '@dcs/domain';
import { seeded } from '../logic/random';

/**
 * The simulated workload cluster's Node of a machine: its name (the pool entry's hostname, as
 * kubelet registers it), uid and NodeSystemInfo, all derived from the seed and the machine.
 */

function uuid(seed: number, ...keys: string[]): string {
  const r = seeded(seed, 'uuid', ...keys);
  const hex = Array.from({ length: 32 }, () => r.int(0, 15).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function nodeNameOf(machine: Machine): string {
  const hostname = machine.status?.addresses?.find((a) => a.type === 'Hostname')?.address;
  return hostname ?? machine.metadata.name ?? '';
}

export function nodeRefOf(machine: Machine, seed: number) {
  const name = nodeNameOf(machine);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    name,
    uid: uuid(seed, 'node', machine.metadata.uid ?? name),
  };
}

export function nodeInfoOf(machine: Machine, seed: number) {
  const version = normalizeKubeVersion(machine.spec?.version ?? 'v1.33.4');
  const id = machine.metadata.uid ?? machine.metadata.name ?? '';
  return {
    architecture: 'amd64',
    bootID: uuid(seed, 'boot', id),
    containerRuntimeVersion: 'containerd://1.7.27',
    kernelVersion: '5.14.0-503.40.1.el9_5.x86_64',
    kubeProxyVersion: version,
    kubeletVersion: version,
    machineID: uuid(seed, 'machine-id', id).replaceAll('-', ''),
    operatingSystem: 'linux',
    osImage: 'Alauda OS 9.5 (DCS)',
    systemUUID: uuid(seed, 'system', id),
  };
}
