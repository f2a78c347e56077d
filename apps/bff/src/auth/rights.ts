import { kindTable, type KindName } from '@dcs/domain';
import type { Authorizer, Check, Denial, Verb } from './authorizer';
import type { Principal } from './principal';

/**
 * The user's rights in a cluster's namespace, as the `context` route sends them: each right is
 * the access reviews its operation's plan will need (asked with the user's own credential), and
 * when one is refused the UI says which (verb, resource, namespace) and the review's reason, so
 * that a disabled action explains itself instead of only being grey.
 */

export type RightName =
  | 'createPool'
  | 'scale'
  | 'deleteMachines'
  | 'upgrade'
  | 'editBootstrap'
  | 'deletePool'
  | 'upgradeControlPlane'
  | 'createIpPool'
  | 'editIpPool'
  | 'readSecrets';

/** What each right needs: the verbs on kinds its operations' plans write with. */
export const RIGHTS: Readonly<Record<RightName, readonly (readonly [Verb, KindName])[]>> = {
  // O-CREATE-POOL (the IP pool too when it is a new one: that is `createIpPool`).
  createPool: [
    ['create', 'DCSMachineTemplate'],
    ['create', 'KubeadmConfigTemplate'],
    ['create', 'MachineDeployment'],
  ],
  // O-SCALE-UP / O-SCALE-DOWN-RANDOM.
  scale: [['patch', 'MachineDeployment']],
  // O-SCALE-DOWN-TARGETED annotates the chosen Machines first (R-MD-6).
  deleteMachines: [
    ['patch', 'Machine'],
    ['patch', 'MachineDeployment'],
  ],
  // O-UPGRADE-INFRA / O-UPGRADE-K8S.
  upgrade: [
    ['create', 'DCSMachineTemplate'],
    ['patch', 'MachineDeployment'],
  ],
  // O-UPDATE-BOOTSTRAP (R-BOOT-3: a copy, then the pool points at it).
  editBootstrap: [
    ['create', 'KubeadmConfigTemplate'],
    ['patch', 'MachineDeployment'],
  ],
  deletePool: [['delete', 'MachineDeployment']],
  // O-UPGRADE-CP.
  upgradeControlPlane: [
    ['create', 'DCSMachineTemplate'],
    ['patch', 'KubeadmControlPlane'],
  ],
  createIpPool: [['create', 'DCSIpHostnamePool']],
  editIpPool: [['patch', 'DCSIpHostnamePool']],
  // R-BOOT-1 on bootstrap files kept in Secrets: without it, their contents are "unknown".
  readSecrets: [['get', 'Secret']],
};

/** One refused access review, as kubectl would name it (`cannot create resource … in …`). */
export interface DeniedCheck {
  verb: Verb;
  kind: KindName;
  group: string;
  resource: string;
  namespace: string;
  /** The review's own `status.reason`, when the authorizer gave one. */
  reason?: string;
}

export type Right = { allowed: true } | { allowed: false; denied: DeniedCheck[] };

export type Rights = Record<RightName, Right>;

const keyOf = (c: Check) => `${c.verb} ${c.kind}`;

/** Pure: the rights, from the refused checks among `RIGHTS`' checks in `namespace`. */
export function rightsOf(denials: readonly Denial[]): Rights {
  const byKey = new Map(denials.map((d) => [keyOf(d), d]));
  const out = {} as Rights;
  for (const [name, needs] of Object.entries(RIGHTS) as [RightName, (typeof RIGHTS)[RightName]][]) {
    const denied = needs.flatMap(([verb, kind]) => {
      const d = byKey.get(`${verb} ${kind}`);
      if (!d) return [];
      const info = kindTable[kind];
      return [
        {
          verb,
          kind,
          group: info.group,
          resource: info.plural,
          namespace: d.namespace,
          ...(d.reason ? { reason: d.reason } : {}),
        },
      ];
    });
    out[name] = denied.length === 0 ? { allowed: true } : { allowed: false, denied };
  }
  return out;
}

/** The user's rights in `namespace`: one access review per distinct (verb, kind), cached. */
export async function rightsIn(
  authorizer: Authorizer,
  principal: Principal,
  namespace: string,
): Promise<Rights> {
  const checks = new Map<string, Check>();
  for (const needs of Object.values(RIGHTS)) {
    for (const [verb, kind] of needs) checks.set(`${verb} ${kind}`, { verb, kind, namespace });
  }
  return rightsOf(await authorizer.denied(principal, [...checks.values()]));
}
