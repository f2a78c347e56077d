import { VERSIONED_GROUPS } from '@dcs/domain';

/**
 * The Cluster API releases the embedded cluster stands for (issue 23), by what their API server
 * serves for the Cluster API groups:
 *
 * - `v1.10`: v1beta1 only, with v1.10's schemas (`generated/capi-schemas.ts`);
 * - `v1.14`: v1beta2 stored and served, v1beta1 served and deprecated (every request to it gets
 *   the `Warning: 299` header), objects converted on every read, write and watch by the domain's
 *   conversion — upstream's, as its conversion webhooks do; v1.14.0's schemas for each version;
 * - `v1.16`: v1beta2 only; v1beta1 is kept unserved, as a CRD keeps a version objects may still be
 *   stored in. v1.16 is not released: its v1beta2 schemas are taken to be v1.14.0's.
 *
 * The default is v1.14, the release management clusters run today: every suite of the console
 * runs against it; `v1.10` and `v1.16` are tested by the release tests.
 */
export const CAPI_RELEASES = ['v1.10', 'v1.14', 'v1.16'] as const;
export type CapiRelease = (typeof CAPI_RELEASES)[number];
export const DEFAULT_CAPI_RELEASE: CapiRelease = 'v1.14';

/** The version of each Cluster API group a client of `release` speaks (the hub's is left out). */
export function capiVersionsOf(release: CapiRelease): Readonly<Record<string, string>> {
  if (release === 'v1.10') return {};
  return Object.fromEntries(VERSIONED_GROUPS.map((g) => [g, 'v1beta2']));
}

export function isCapiRelease(v: string): v is CapiRelease {
  return (CAPI_RELEASES as readonly string[]).includes(v);
}
