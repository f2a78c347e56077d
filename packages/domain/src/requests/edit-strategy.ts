import { z } from 'zod';
import { bounded, durationField, intOrPercentField } from './fields';

/**
 * O-EDIT-STRATEGY: the rollout settings and node timeouts of an existing worker pool. A field
 * that is present is the value the user wants; a field left out stays as it is (so two people
 * editing different fields never undo each other's change). maxSurge / maxUnavailable are
 * R-MD-2's int-or-percent, the timeouts Go durations (`30s`, `5m`, `0` = no limit). A field sent
 * as `null` is removed from the MachineDeployment (issue 12: a timeout can be unset), so that
 * Cluster API's default applies again: maxSurge 1, maxUnavailable 0, nodeDeletionTimeout 10s, no
 * limit for nodeDrainTimeout and nodeVolumeDetachTimeout.
 */
export const EDIT_STRATEGY_FIELDS = [
  'maxSurge',
  'maxUnavailable',
  'nodeDrainTimeout',
  'nodeDeletionTimeout',
  'nodeVolumeDetachTimeout',
] as const;
export type EditStrategyField = (typeof EDIT_STRATEGY_FIELDS)[number];

export const EditStrategyRequestSchema = bounded(
  z.strictObject({
    /** The MachineDeployment's resourceVersion as the user saw it. */
    resourceVersion: z.string().min(1),
    maxSurge: intOrPercentField('maxSurge').nullable().optional(),
    maxUnavailable: intOrPercentField('maxUnavailable').nullable().optional(),
    nodeDrainTimeout: durationField('nodeDrainTimeout').nullable().optional(),
    nodeDeletionTimeout: durationField('nodeDeletionTimeout').nullable().optional(),
    nodeVolumeDetachTimeout: durationField('nodeVolumeDetachTimeout').nullable().optional(),
  }),
);
export type EditStrategyRequest = z.infer<typeof EditStrategyRequestSchema>;
