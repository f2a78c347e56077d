import { normalizeKubeVersion } from '../versions';

/**
 * Names of the objects a worker pool is made of. The pool's name is its MachineDeployment's name
 * (R-MD-5); the reference names the rest after it, and so does the Add form by default.
 */

export interface PoolObjectNames {
  machineDeployment: string;
  machineTemplate: string;
  bootstrapTemplate: string;
  ipPool: string;
}

/** `<pool>-template`, `<pool>-kct`, `<pool>-ippool` (the reference's `worker-pool-1-ippool`). */
export function defaultPoolObjectNames(pool: string): PoolObjectNames {
  return {
    machineDeployment: pool,
    machineTemplate: `${pool}-template`,
    bootstrapTemplate: `${pool}-kct`,
    ipPool: `${pool}-ippool`,
  };
}

const REVISION = /-r(\d+)$/;
const MAX_NAME = 253;

/**
 * A free name for a new revision of a template (R-TPL-4, R-BOOT-3: templates are replaced, not
 * edited): `<base>-r2`, `-r3`, … after the revision the current name already carries.
 */
export function nextRevisionName(current: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const m = REVISION.exec(current);
  const base = m ? current.slice(0, m.index) : current;
  let n = m ? Number(m[1]) + 1 : 2;
  for (;;) {
    const suffix = `-r${n}`;
    const name = `${base.slice(0, MAX_NAME - suffix.length)}${suffix}`;
    if (!used.has(name)) return name;
    n++;
  }
}

/** A Kubernetes version as names carry it: `v1.35.0` → `v1-35-0`. */
export function versionNameToken(version: string): string {
  const v = normalizeKubeVersion(version);
  return v.replace(/\./g, '-');
}

/** `…-v1-34-1…` in a name: the version a template was made for (R-MD-5 naming). */
const VERSION_IN_NAME = /(^|-)v\d+-\d+-\d+(?=-|$)/;

/** The version token a name carries, such as `v1-34-1`, if any. */
export function versionTokenOf(name: string): string | undefined {
  const m = VERSION_IN_NAME.exec(name);
  return m ? m[0].replace(/^-/, '') : undefined;
}

/**
 * A free name for a template made for `version` (R-MD-5 naming, R-TPL-4, R-BOOT-3): the current
 * name with the version it carries replaced by the new one (`…-v1-34-1-r2` → `…-v1-35-0`), or
 * with the new one appended when it carries none; the revision suffix is dropped, and `-r2`,
 * `-r3` … added only when that name is taken.
 */
export function nameForVersion(current: string, version: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const token = versionNameToken(version);
  const m = REVISION.exec(current);
  const base = m ? current.slice(0, m.index) : current;
  const named = VERSION_IN_NAME.test(base)
    ? base.replace(VERSION_IN_NAME, (whole, lead: string) => `${lead}${token}`)
    : `${base.slice(0, MAX_NAME - token.length - 1)}-${token}`;
  return used.has(named) ? nextRevisionName(named, used) : named;
}
