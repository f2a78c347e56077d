import type { Permission } from '../api/get-cluster-context';
import type { I18n } from '../i18n/context';

/**
 * Why the user may not do it, in their language: each access review that refused (verb,
 * resource.group, namespace) with the review's own reason text; what the action needs when the
 * BFF named no review. Undefined when it is allowed.
 */
export function refusalText(permission: Permission, t: I18n['t']): string | undefined {
  if (permission.allowed) return undefined;
  if (!permission.denied?.length) return t('access.denied', { needs: permission.needs });
  return permission.denied
    .map((d) => {
      const resource = d.group ? `${d.resource}.${d.group}` : d.resource;
      const refused = t('access.deniedBy', { verb: d.verb, resource, namespace: d.namespace });
      return d.reason ? `${refused} ${t('access.reviewReason', { reason: d.reason })}` : refused;
    })
    .join(' ');
}
