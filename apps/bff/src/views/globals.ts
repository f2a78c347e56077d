import {
  DEFAULT_NAMESPACE,
  providerVersionFrom,
  VERSIONS_CATALOG_KEY,
  VERSIONS_CATALOG_NAME,
  VersionsCatalogSchema,
  type VersionsCatalog,
} from '@dcs/domain';
import { parse as parseYaml } from 'yaml';
import type { ObjectCache } from '../cache/object-cache';

/**
 * Facts that every view and rule of every cluster shares: the versions catalog (a ConfigMap) and
 * the DCS provider's version (its Deployment, or the operator's override).
 */

export interface Globals {
  versions: VersionsCatalog;
  /** Why the catalog could not be read, when it could not. */
  versionsError?: string;
  providerVersion: string | undefined;
}

export function readGlobals(cache: ObjectCache, providerOverride: string | undefined): Globals {
  const cm = cache.store('ConfigMap').get(DEFAULT_NAMESPACE, VERSIONS_CATALOG_NAME);
  let versions: VersionsCatalog = [];
  let versionsError: string | undefined;
  const text = cm?.data?.[VERSIONS_CATALOG_KEY];
  if (text !== undefined) {
    try {
      const parsed = VersionsCatalogSchema.safeParse(parseYaml(text));
      if (parsed.success) versions = parsed.data;
      else versionsError = parsed.error.message;
    } catch (error) {
      versionsError = error instanceof Error ? error.message : String(error);
    }
  }
  let providerVersion = providerOverride;
  if (providerVersion === undefined) {
    for (const d of cache.store('Deployment').values()) {
      const image = d.spec?.template?.spec?.containers?.[0]?.image;
      providerVersion = providerVersionFrom(d.metadata.labels, image);
      if (providerVersion !== undefined) break;
    }
  }
  return {
    versions,
    ...(versionsError !== undefined ? { versionsError } : {}),
    providerVersion,
  };
}
