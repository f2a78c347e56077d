/**
 * Failure injection: which troubleshooting path a machine takes. A failure is asked for by the
 * annotation `sim.dcs.io/fail` on a Machine or its DCSMachine (that machine), or on a
 * DCSIpHostnamePool (every VM created from it, or, with `MODE@IP`, the VM of that entry), or by
 * a `--fail` rule of the CLI (all machines, a pool, a machine, or a seeded share of them).
 */
import { seeded } from './random';

export const ANNOTATION_FAIL = 'sim.dcs.io/fail';

/**
 * The simulator's hooks (`sim.dcs.io/fail`, `sim.dcs.io/refuse`) aim at the object that carries
 * them. Controllers never copy them onto the objects they derive: a refusal on a
 * MachineDeployment copied to its MachineSet would outlive its removal from the deployment and
 * freeze the next rollout.
 */
export const isSimulatorHook = (annotation: string): boolean =>
  annotation.startsWith('sim.dcs.io/');

export const FAILURE_MODES = [
  /** T-1: the ISO is uploaded (cdRomFile set) but the VM never leaves `creating`. */
  'placement-stall',
  /** T-1, earlier fault: DCS authentication or the ISO upload fails, no cdRomFile. */
  'iso-upload',
  /** The DCS task creating the VM fails: the DCSMachine and Machine report a failure. */
  'vm-create-error',
  /** The VM runs and the node registers, but never becomes Ready (NodeHealthy False). */
  'node-unhealthy',
  /**
   * Draining never completes: a PodDisruptionBudget over the Node's Pods allows no disruption
   * (`workload/pods.ts`), so every eviction is refused; only nodeDrainTimeout (or removing the
   * failure) ends it.
   */
  'drain-stuck',
] as const;
export type FailureMode = (typeof FAILURE_MODES)[number];

export const isFailureMode = (s: string): s is FailureMode =>
  (FAILURE_MODES as readonly string[]).includes(s);

/** A CLI rule: `--fail MODE[:pool=NAME][:machine=NAME][:p=0.25]`. */
export interface FailureRule {
  mode: FailureMode;
  pool?: string;
  machine?: string;
  /** Share of matching machines that fail, drawn from the seed per machine (default 1). */
  probability?: number;
}

export function parseFailureRule(text: string): FailureRule {
  const [mode, ...parts] = text.split(':');
  if (!mode || !isFailureMode(mode)) {
    throw new Error(`unknown failure mode "${mode ?? ''}"; one of ${FAILURE_MODES.join(', ')}`);
  }
  const rule: FailureRule = { mode };
  for (const part of parts) {
    const [k, v] = part.split('=');
    if (!v) throw new Error(`failure rule "${text}": expected key=value, got "${part}"`);
    if (k === 'pool') rule.pool = v;
    else if (k === 'machine') rule.machine = v;
    else if (k === 'p') {
      const p = Number(v);
      if (!(p >= 0 && p <= 1)) throw new Error(`failure rule "${text}": p must be within 0..1`);
      rule.probability = p;
    } else throw new Error(`failure rule "${text}": unknown key "${k ?? ''}"`);
  }
  return rule;
}

/** Modes named by an annotation value: `a,b`, or `a@10.0.1.5` to apply to one pool entry. */
export function modesFromAnnotation(value: string | undefined, ip?: string): FailureMode[] {
  if (!value) return [];
  const out: FailureMode[] = [];
  for (const raw of value.split(',')) {
    const [mode, at] = raw.trim().split('@');
    if (!mode || !isFailureMode(mode)) continue;
    if (at !== undefined && at !== ip) continue;
    out.push(mode);
  }
  return out;
}

export interface FailureSubject {
  machine: string;
  machineAnnotations?: Record<string, string> | undefined;
  infraAnnotations?: Record<string, string> | undefined;
  pool?: string | undefined;
  poolAnnotations?: Record<string, string> | undefined;
  ip?: string | undefined;
}

export function failureModes(
  subject: FailureSubject,
  rules: readonly FailureRule[],
  seed: number,
): Set<FailureMode> {
  const modes = new Set<FailureMode>([
    ...modesFromAnnotation(subject.machineAnnotations?.[ANNOTATION_FAIL]),
    ...modesFromAnnotation(subject.infraAnnotations?.[ANNOTATION_FAIL]),
    ...modesFromAnnotation(subject.poolAnnotations?.[ANNOTATION_FAIL], subject.ip),
  ]);
  for (const rule of rules) {
    if (rule.pool !== undefined && rule.pool !== subject.pool) continue;
    if (rule.machine !== undefined && rule.machine !== subject.machine) continue;
    const p = rule.probability ?? 1;
    if (p < 1 && seeded(seed, 'failure', rule.mode, subject.machine).next() >= p) continue;
    modes.add(rule.mode);
  }
  return modes;
}
