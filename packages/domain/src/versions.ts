/**
 * Version arithmetic: Kubernetes versions (`v1.33.4`), their minor lines (R-MD-4 skew), and DCS
 * provider versions (`1.0.16`, R-VER-*). Pure; no semver library needed for these shapes.
 */

export interface KubeVersion {
  major: number;
  minor: number;
  patch: number;
}

const KUBE_VERSION = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+].*)?$/;

export function parseKubeVersion(v: string | undefined): KubeVersion | undefined {
  const m = v ? KUBE_VERSION.exec(v.trim()) : null;
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0) };
}

/** Negative, zero or positive as a is older, equal to or newer than b. Unparseable sorts first. */
export function compareKubeVersions(a: string | undefined, b: string | undefined): number {
  const pa = parseKubeVersion(a);
  const pb = parseKubeVersion(b);
  if (!pa || !pb) return (pa ? 1 : 0) - (pb ? 1 : 0);
  return pa.major - pb.major || pa.minor - pb.minor || pa.patch - pb.patch;
}

/** How many minor versions `older` is behind `newer` (negative when it is ahead). */
export function minorSkew(newer: string, older: string): number | undefined {
  const n = parseKubeVersion(newer);
  const o = parseKubeVersion(older);
  if (!n || !o) return undefined;
  return (n.major - o.major) * 1000 + (n.minor - o.minor);
}

/** `v1.33.4` → `1.33` */
export function minorLine(v: string): string | undefined {
  const p = parseKubeVersion(v);
  return p ? `${p.major}.${p.minor}` : undefined;
}

/** The same version written the way Cluster API writes it (with the leading `v`). */
export function normalizeKubeVersion(v: string): string {
  const p = parseKubeVersion(v);
  return p ? `v${p.major}.${p.minor}.${p.patch}` : v;
}

/** Compares dotted numeric versions such as `1.0.13` and `v1.0.16-rc.1` (pre-release ignored). */
export function compareProviderVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .replace(/^v/, '')
      .split(/[-+]/)[0]
      ?.split('.')
      .map((x) => Number(x) || 0) ?? [];
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The provider version as DOMAIN.md reads it: the version label, else the image tag. */
export function providerVersionFrom(
  labels: Record<string, string> | undefined,
  image: string | undefined,
): string | undefined {
  const label = labels?.['app.kubernetes.io/version'];
  if (label) return label.replace(/^v/, '');
  const tag = image?.includes(':') ? image.slice(image.lastIndexOf(':') + 1) : undefined;
  return tag && /\d+\.\d+/.test(tag) ? tag.replace(/^v/, '') : undefined;
}

/** Provider versions that gate features (DOMAIN.md, "Versions of the provider"). */
export const PROVIDER_MIN_WEB_WORKFLOW = '1.0.13'; // R-VER-1
export const PROVIDER_MIN_PERSISTENT_DISKS = '1.0.16'; // R-VER-2
