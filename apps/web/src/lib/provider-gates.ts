import {
  compareProviderVersions,
  PROVIDER_MIN_PERSISTENT_DISKS,
  PROVIDER_MIN_WEB_WORKFLOW,
} from '@dcs/domain';

/**
 * The provider version gates, decided once for every screen: R-VER-1 (the web node-pool workflow
 * needs DCS provider ≥ 1.0.13) and R-VER-2 (pool-managed persistent disks need ≥ 1.0.16).
 * An unknown version does not gate: the BFF's rules still judge every request.
 */
export interface ProviderGates {
  version: string | undefined;
  webWorkflow: boolean;
  persistentDisks: boolean;
}

export function providerGates(version: string | undefined): ProviderGates {
  if (version === undefined) return { version, webWorkflow: true, persistentDisks: true };
  return {
    version,
    webWorkflow: compareProviderVersions(version, PROVIDER_MIN_WEB_WORKFLOW) >= 0,
    persistentDisks: compareProviderVersions(version, PROVIDER_MIN_PERSISTENT_DISKS) >= 0,
  };
}

export { PROVIDER_MIN_PERSISTENT_DISKS, PROVIDER_MIN_WEB_WORKFLOW };
