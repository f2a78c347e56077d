import type { Permission } from '../api/get-cluster-context';
import type { I18n } from '../i18n/context';

type Refusal = NonNullable<Permission['denied']>[number];

/**
 * Why the user may not do it, in their language: the access reviews that refused, one sentence
 * per verb, namespace and reason naming every resource it refused (an action that needs three
 * kinds reads as one refusal of three, not three refusals), with the review's own reason text;
 * what the action needs when the BFF named no review. Undefined when it is allowed.
 */
export function refusalText(
  permission: Permission,
  { t, locale }: Pick<I18n, 't' | 'locale'>,
): string | undefined {
  if (permission.allowed) return undefined;
  if (!permission.denied?.length) return t('access.denied', { needs: permission.needs });
  const groups = new Map<string, { first: Refusal; resources: string[] }>();
  for (const d of permission.denied) {
    const key = JSON.stringify([d.verb, d.namespace, d.reason ?? '']);
    const resource = d.group ? `${d.resource}.${d.group}` : d.resource;
    const group = groups.get(key);
    if (group) group.resources.push(resource);
    else groups.set(key, { first: d, resources: [resource] });
  }
  const list = new Intl.ListFormat(locale, { type: 'conjunction' });
  return [...groups.values()]
    .map(({ first: { verb, namespace, reason }, resources }) => {
      const refused = t('access.deniedBy', { verb, resource: list.format(resources), namespace });
      return reason ? `${refused} ${t('access.reviewReason', { reason })}` : refused;
    })
    .join(' ');
}
