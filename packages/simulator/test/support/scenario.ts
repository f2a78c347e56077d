import { LABEL_DEPLOYMENT_NAME, type Machine } from '@dcs/domain';
import {
  clusterObjects,
  poolEntries,
  workerPoolObjects,
  type WorkerPoolOptions,
} from '../../src/seed/objects';
import type { Sim } from './sim';

/** Steps the scenario tests share: a cluster to work in, and worker pools made the documented way. */

let subnetSeq = 0;
/** A fresh /24 per pool, so pools of one test file never share addresses. */
export const nextSubnet = () =>
  `10.${String(40 + Math.floor(subnetSeq / 200))}.${String(subnetSeq++ % 200)}.`;

export async function clusterUp(
  sim: Sim,
  name: string,
  o: { version?: string; cpReplicas?: number } = {},
) {
  await sim.create(
    ...clusterObjects({
      name,
      version: o.version ?? 'v1.34.1',
      endpoint: '10.9.0.10',
      replicas: o.cpReplicas ?? 1,
      controlPlaneEntries: poolEntries({
        subnet: nextSubnet(),
        first: 11,
        count: (o.cpReplicas ?? 1) + 1,
        hostnamePrefix: `${name}-cp`,
      }),
    }),
  );
  await sim.until(
    `cluster ${name} initialized`,
    () => {
      const kcp = sim.get('KubeadmControlPlane', `${name}-control-plane`);
      return kcp?.status?.readyReplicas === (o.cpReplicas ?? 1) ? kcp : undefined;
    },
    90_000,
  );
}

export type PoolOptions = Omit<WorkerPoolOptions, 'entries'> & {
  entries?: number;
  persistent?: boolean;
  nics?: boolean;
};

/** O-CREATE-POOL: IP pool, machine template, bootstrap template, MachineDeployment, in that order, with kubectl's requests. */
export async function createPool(sim: Sim, o: PoolOptions): Promise<{ subnet: string }> {
  const subnet = nextSubnet();
  const objects = workerPoolObjects({
    ...o,
    entries: poolEntries({
      subnet,
      first: 11,
      count: o.entries ?? o.replicas,
      hostnamePrefix: o.name,
      ...(o.persistent ? { persistentCpaas: true } : {}),
      ...(o.nics ? { extraNicSubnet: `192.168.${subnet.split('.')[2] ?? '0'}.` } : {}),
    }),
  });
  for (const obj of objects) await sim.kubectl.create(obj);
  return { subnet };
}

export const machinesOf = (sim: Sim, md: string): Machine[] =>
  sim.list('Machine').filter((m) => m.metadata.labels?.[LABEL_DEPLOYMENT_NAME] === md);

/** The deployment is done: every replica updated, ready and available, and no other machine left. */
export function poolSettled(sim: Sim, md: string): boolean {
  const d = sim.get('MachineDeployment', md);
  const r = d?.spec?.replicas;
  const s = d?.status;
  return (
    r !== undefined &&
    s?.observedGeneration === d?.metadata.generation &&
    s?.replicas === r &&
    s.updatedReplicas === r &&
    s.readyReplicas === r &&
    s.availableReplicas === r &&
    machinesOf(sim, md).length === r &&
    machinesOf(sim, md).every((m) => m.status?.phase === 'Running' && !m.metadata.deletionTimestamp)
  );
}

export async function waitSettled(sim: Sim, md: string, timeoutMs = 60_000): Promise<void> {
  await sim.until(`${md} settled`, () => poolSettled(sim, md), timeoutMs);
  await sim.controllers.idle();
}

export const dcsMachineOf = (sim: Sim, machine: Machine) =>
  sim.get('DCSMachine', machine.spec?.infrastructureRef.name ?? '');

/** The value, or a test failure naming what was missing. */
export function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing`);
  return value;
}

/** With a manual clock (time scale 0) nothing waits on the wall clock: the test moves time. */
export async function advanceUntil(
  sim: Sim,
  what: string,
  done: () => boolean,
  stepMs = 10_000,
  maxSteps = 500,
): Promise<void> {
  for (let i = 0; i < maxSteps; i++) {
    if (done()) return;
    await sim.clock.advance(stepMs);
    await sim.controllers.idle();
    await new Promise((r) => setTimeout(r, 5));
  }
  if (!done()) throw new Error(`not reached: ${what}\n${sim.dump()}`);
}
