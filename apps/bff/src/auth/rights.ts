import { kindTable, RIGHTS, type RightName, type Rights } from '@dcs/domain';
import type { Authorizer, Check, Denial } from './authorizer';
import type { Principal } from './principal';

/**
 * The user's rights in a cluster's namespace (domain's `RIGHTS`), decided by access reviews asked
 * with the user's own credential.
 */

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
