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

/** Why a pool is offered no Kubernetes upgrade (R-MD-4), or the versions it may go to. */
export type UpgradeOffer =
  | { kind: 'offered'; targets: string[] }
  /** The pool's version does not parse: nothing can be compared with it. */
  | { kind: 'version-unknown' }
  /** The catalog has nothing newer than the pool's version. */
  | { kind: 'newest' }
  /** Newer versions exist, but workers may not outrun the control plane (R-MD-4 skew). */
  | { kind: 'control-plane-older'; controlPlaneVersion: string; newest: string }
  /** Newer versions exist, but the control plane's version, the workers' ceiling, is unknown. */
  | { kind: 'control-plane-unknown'; newest: string };

/**
 * The Kubernetes versions a pool may be upgraded to (U-2, U-3, O-UPGRADE-K8S): catalog versions
 * newer than `current`, oldest first, and, when `ceiling` is given (workers: the control plane's
 * version, R-MD-4), not newer than it. When there are none, it says why, so that a form names
 * the real reason rather than "nothing newer".
 */
export function upgradeOffer(
  current: string | undefined,
  catalog: VersionsCatalog,
  ceiling?: { version: string | undefined },
): UpgradeOffer {
  if (!parseKubeVersion(current)) return { kind: 'version-unknown' };
  const newer = [...new Set(catalog.map((e) => e.version))]
    .filter((v) => parseKubeVersion(v) && compareKubeVersions(v, current) > 0)
    .sort(compareKubeVersions);
  const newest = newer[newer.length - 1];
  if (newest === undefined) return { kind: 'newest' };
  if (!ceiling) return { kind: 'offered', targets: newer };
  const cp = ceiling.version;
  if (!parseKubeVersion(cp) || cp === undefined) return { kind: 'control-plane-unknown', newest };
  const targets = newer.filter((v) => compareKubeVersions(v, cp) <= 0);
  return targets.length > 0
    ? { kind: 'offered', targets }
    : { kind: 'control-plane-older', controlPlaneVersion: cp, newest };
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
  const offer = upgradeOffer(current, catalog, ceiling);
  return offer.kind === 'offered' ? offer.targets[offer.targets.length - 1] : undefined;
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
