import {
  DEFAULT_NAMESPACE,
  providerVersionFrom,
  VERSIONS_CATALOG_KEY,
  VERSIONS_CATALOG_NAME,
  VersionsCatalogSchema,
  type VersionsCatalog,
} from '@dcs/domain';
import { load as loadYaml } from 'js-yaml';
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
      const parsed = VersionsCatalogSchema.safeParse(parseCatalog(text));
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

/**
 * The catalog is YAML anyone allowed to edit the ConfigMap writes, read again on each change:
 * parsed in time linear in its length (js-yaml, made for untrusted input), with nesting bounded
 * and no aliases — a catalog has no use for them, and a few can expand to more than the schema
 * could ever walk (issue 25, item 7, the class: the previous parser was quadratic in a map's keys).
 */
function parseCatalog(text: string): unknown {
  return loadYaml(text, { maxDepth: 32, maxAliases: 0 });
}
