import {
  BOOTSTRAP_GROUP,
  CAPI_GROUP,
  CONTROL_PLANE_GROUP,
  kindTable,
  type KindInfo,
  type KindName,
} from './kinds';

/**
 * Which version of each API group the console speaks to a management cluster (issue 23). The
 * console's model is one shape per kind (the hub, `kindTable`'s version); on the wire it speaks
 * the best version the cluster serves among those it can convert to and from the hub. Cluster API
 * v1.10 serves v1beta1 only, v1.11–v1.15 serve v1beta2 and a deprecated v1beta1, v1.16 serves
 * v1beta2 only: the choice is made per group, from discovery, and made again when the cluster is
 * upgraded under a running console.
 */

/** The groups whose version depends on the Cluster API release. */
export const VERSIONED_GROUPS = [CAPI_GROUP, CONTROL_PLANE_GROUP, BOOTSTRAP_GROUP] as const;
export type VersionedGroup = (typeof VERSIONED_GROUPS)[number];

/**
 * The versions the console can speak per group, best first. A version is listed only where the
 * conversion between it and the hub exists (`conversion/`); every other group is spoken in the
 * version of its kinds in `kindTable`.
 */
const SPOKEN: Readonly<Record<VersionedGroup, readonly string[]>> = {
  [CAPI_GROUP]: ['v1beta2', 'v1beta1'],
  [CONTROL_PLANE_GROUP]: ['v1beta2', 'v1beta1'],
  [BOOTSTRAP_GROUP]: ['v1beta2', 'v1beta1'],
};

export function isVersionedGroup(group: string): group is VersionedGroup {
  return (VERSIONED_GROUPS as readonly string[]).includes(group);
}

/** The versions the console can speak for a group, best first. */
export function spokenVersions(group: string): readonly string[] {
  if (isVersionedGroup(group)) return SPOKEN[group];
  const versions = new Set<string>();
  for (const info of Object.values(kindTable) as KindInfo[]) {
    if (info.group === group) versions.add(info.version);
  }
  return [...versions];
}

/** The group's version in the console's own model (the hub), which is also the default. */
export function hubVersion(group: string): string | undefined {
  for (const info of Object.values(kindTable) as KindInfo[]) {
    if (info.group === group) return info.version;
  }
  return undefined;
}

/**
 * The version to speak, given the versions the group serves (discovery's `versions`): the best
 * spoken one that is served; `undefined` when none is (the group is missing, or serves only
 * versions this console does not know — a newer Cluster API than it was built for).
 */
export function chooseApiVersion(group: string, served: readonly string[]): string | undefined {
  return spokenVersions(group).find((v) => served.includes(v));
}

/** group → version, as chosen for one management cluster. */
export type ApiVersionChoice = Readonly<Record<string, string>>;

/** The kind's table entry with the version the cluster is spoken to in. */
export function kindAtVersion(kind: KindName, choice: ApiVersionChoice): KindInfo {
  const info: KindInfo = kindTable[kind];
  const version = Object.hasOwn(choice, info.group) ? choice[info.group] : undefined;
  return version === undefined || version === info.version ? info : { ...info, version };
}
