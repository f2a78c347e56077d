import type { Machine } from '../schemas/capi';
import { findCondition } from './conditions';
import {
  ANNOTATION_EXCLUDE_NODE_DRAINING,
  deletionView,
  type DeletionInput,
  type PdbRefusal,
} from './drain';
import { optional } from './util';

/**
 * What the machine page's Deletion panel and the drain signals (the Nodes row's badge, the pool
 * card's problem) read of a deleting Machine (issue 26 item 6), carried on its MachineView: every
 * input of `deletionView` but the clock, which the page passes so that the drain time ticks.
 */
export type MachineDeletionFacts = Omit<DeletionInput, 'nowMs'>;

const conditionFact = (c: { status: string; reason?: string | undefined; message?: string }) => ({
  status: c.status,
  ...optional('reason', c.reason),
  ...optional('message', c.message),
});

/** The deletion facts of a Machine being deleted; undefined for one that is not. */
export function deletionFactsOf(machine: Machine): MachineDeletionFacts | undefined {
  const { metadata: meta, spec, status } = machine;
  if (!meta.deletionTimestamp) return undefined;
  const deleting = status?.v1beta2?.conditions?.find((c) => c.type === 'Deleting');
  const draining = findCondition(status?.conditions, 'DrainingSucceeded');
  const annotations = meta.annotations ?? {};
  const excluded = Object.hasOwn(annotations, ANNOTATION_EXCLUDE_NODE_DRAINING);
  return {
    deletionTimestamp: meta.deletionTimestamp,
    // Only the annotation the view reads: a machine's other annotations stay off the wire.
    ...(excluded
      ? {
          annotations: {
            [ANNOTATION_EXCLUDE_NODE_DRAINING]: annotations[ANNOTATION_EXCLUDE_NODE_DRAINING] ?? '',
          },
        }
      : {}),
    ...optional('deleting', deleting ? conditionFact(deleting) : undefined),
    ...optional('drainingSucceeded', draining ? conditionFact(draining) : undefined),
    ...optional('nodeDrainStartTime', status?.deletion?.nodeDrainStartTime),
    ...optional('nodeDrainTimeout', spec?.nodeDrainTimeout),
  };
}

/**
 * The PodDisruptionBudgets refusing the drain of a machine that is draining now, one per budget
 * (the first refusal's needs/has), in the message's order; empty when none refuses. The clock
 * does not matter to it: which evictions are refused is in the message.
 */
export function drainRefusalsOf(facts: MachineDeletionFacts | undefined): PdbRefusal[] {
  if (!facts) return [];
  const view = deletionView({ ...facts, nowMs: 0 });
  const out: PdbRefusal[] = [];
  for (const f of view?.drain?.failed ?? []) {
    if (f.pdb && !out.some((p) => p.name === f.pdb?.name)) out.push({ ...f.pdb });
  }
  return out;
}

/** The namespace of the Pods a refused eviction names ("ns/name"): the budget's own namespace. */
export function refusalNamespace(pods: readonly string[]): string | undefined {
  const first = pods[0];
  const slash = first?.indexOf('/') ?? -1;
  return first && slash > 0 ? first.slice(0, slash) : undefined;
}
