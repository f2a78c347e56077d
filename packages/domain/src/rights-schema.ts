import { z } from 'zod';
import { RIGHT_NAMES, VERBS, type RightName } from './rights';

/**
 * The `context` route's `permissions` on the wire (the BFF's response schema). Apart from
 * `rights.ts` so that a client needing only what each right needs does not ship zod.
 */

/** One refused access review, as kubectl would name it (`cannot create resource … in …`). */
export const DeniedCheckSchema = z.object({
  verb: z.enum(VERBS),
  kind: z.string(),
  group: z.string(),
  resource: z.string(),
  namespace: z.string(),
  /** The review's own `status.reason`, when the authorizer gave one. */
  reason: z.string().optional(),
});
export type DeniedCheck = z.infer<typeof DeniedCheckSchema>;

/** A right: allowed, or refused with every access review that said no. */
export const RightSchema = z.discriminatedUnion('allowed', [
  z.object({ allowed: z.literal(true) }),
  z.object({ allowed: z.literal(false), denied: z.array(DeniedCheckSchema).min(1) }),
]);
export type Right = z.infer<typeof RightSchema>;

/** Every right of the user, as the `context` route's `permissions`. */
export const RightsSchema = z.object(
  Object.fromEntries(RIGHT_NAMES.map((n) => [n, RightSchema])) as Record<
    RightName,
    typeof RightSchema
  >,
);
export type Rights = Record<RightName, Right>;
