import type { KubeadmControlPlane } from '../schemas/controlplane';
import type { VersionsCatalog } from '../schemas/catalog';
import { compareKubeVersions, parseKubeVersion } from '../versions';

/**
 * The control plane's version for the purposes of its workers (R-MD-4): the older of what it is
 * asked to run (`spec.version`) and what its oldest machine runs (`status.version`), so that a
 * worker never outruns a control plane that is still being upgraded.
 */
export function controlPlaneVersionOf(kcp: KubeadmControlPlane | undefined): string | undefined {
  const spec = kcp?.spec?.version;
  const status = kcp?.status?.version;
  if (!spec || !parseKubeVersion(spec)) return status;
  if (!status || !parseKubeVersion(status)) return spec;
  return compareKubeVersions(status, spec) < 0 ? status : spec;
}

/**
 * The upgrade indicator (U-2, U-3): the newest catalog version newer than `current`, and, when
 * `ceiling` is given, not newer than it (workers: the control plane's version, R-MD-4). Undefined
 * when there is none, when `current` does not parse, or when a ceiling is required but unknown.
 */
export function newestUpgrade(
  current: string | undefined,
  catalog: VersionsCatalog,
  ceiling?: { version: string | undefined },
): string | undefined {
  if (!parseKubeVersion(current)) return undefined;
  if (ceiling && !parseKubeVersion(ceiling.version)) return undefined;
  let best: string | undefined;
  for (const { version } of catalog) {
    if (compareKubeVersions(version, current) <= 0) continue;
    if (ceiling && compareKubeVersions(version, ceiling.version) > 0) continue;
    if (best === undefined || compareKubeVersions(version, best) > 0) best = version;
  }
  return best;
}

/** The Kubernetes version the catalog says a VM template carries (R-MD-4). */
export function catalogVersionOfTemplate(
  catalog: VersionsCatalog,
  vmTemplateName: string | undefined,
): string | undefined {
  return vmTemplateName === undefined
    ? undefined
    : catalog.find((e) => e.vmTemplateName === vmTemplateName)?.version;
}
