import { seeded } from './random';

/**
 * How long each step of a machine's life takes, in simulated seconds, as ranges: a value is
 * drawn per (machine, step) from the run's seed, so a machine is equally slow in every run with
 * the same `--random-seed`. The defaults are what a DCS platform typically shows: minutes to
 * create a VM and join it, seconds to tens of seconds for the rest.
 */
export interface Timings {
  /** KubeadmConfig: generating the bootstrap data Secret. */
  bootstrapData: readonly [number, number];
  /** DCS: authenticating and uploading the bootstrap ISO (then cdRomFile is set). */
  isoUpload: readonly [number, number];
  /** DCS: cloning, placing and powering on the VM (creating → running). */
  vmCreate: readonly [number, number];
  /** kubelet joining: from the VM running to the Node registering (nodeRef). */
  nodeJoin: readonly [number, number];
  /** From the Node registering to it being Ready (CNI up): NodeHealthy True. */
  nodeReady: readonly [number, number];
  /** Draining the node of a deleted machine (capped by nodeDrainTimeout). */
  drain: readonly [number, number];
  /** DCS: powering off and deleting the VM, detaching persistent disks. */
  vmDelete: readonly [number, number];
  /** Deleting the Node object of a removed machine. */
  nodeDelete: readonly [number, number];
  /** Creating a persistent volume the first time its (ip, slot) is used. */
  volumeCreate: readonly [number, number];
}

export const DEFAULT_TIMINGS: Timings = {
  bootstrapData: [2, 5],
  isoUpload: [5, 15],
  vmCreate: [45, 120],
  nodeJoin: [20, 60],
  nodeReady: [10, 30],
  drain: [5, 30],
  vmDelete: [10, 30],
  nodeDelete: [1, 3],
  volumeCreate: [5, 15],
};

export type Step = keyof Timings;

/** The simulated duration in ms of `step` for the object named `key`. */
export function stepDuration(timings: Timings, seed: number, key: string, step: Step): number {
  const [min, max] = timings[step];
  return Math.round(seeded(seed, 'duration', step, key).between(min, max) * 1000);
}
