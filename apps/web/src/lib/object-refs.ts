import type { KindName, MachineView, NodePoolView } from '@dcs/domain';

export interface ObjectRef {
  kind: KindName;
  name: string;
}

/** The objects a pool is made of (DOMAIN.md §1), for its YAML view. */
export function poolObjectRefs(pool: NodePoolView): ObjectRef[] {
  const out: ObjectRef[] = [
    pool.kind === 'control-plane'
      ? { kind: 'KubeadmControlPlane', name: pool.name }
      : { kind: 'MachineDeployment', name: pool.name },
  ];
  if (pool.machineTemplate.name)
    out.push({ kind: 'DCSMachineTemplate', name: pool.machineTemplate.name });
  if (pool.bootstrapTemplate)
    out.push({ kind: 'KubeadmConfigTemplate', name: pool.bootstrapTemplate });
  if (pool.ipPool) out.push({ kind: 'DCSIpHostnamePool', name: pool.ipPool.name });
  return out;
}

export function machineObjectRefs(m: MachineView): ObjectRef[] {
  return [
    { kind: 'Machine', name: m.name },
    ...(m.dcsMachineName ? [{ kind: 'DCSMachine' as const, name: m.dcsMachineName }] : []),
  ];
}
