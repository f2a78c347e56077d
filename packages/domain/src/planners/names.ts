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
