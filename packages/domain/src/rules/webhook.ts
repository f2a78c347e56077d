import type { MachineDeployment } from '../schemas/capi';
import type { DCSIpHostnamePool, DCSMachineTemplate } from '../schemas/dcs';
import { checkDiskChanges } from './disk';
import type { RuleIssue } from './issue';
import { checkRolloutStrategy } from './md';
import { checkTemplateSpecImmutable } from './template';
import { joinPath } from './util';

/**
 * The rules the API server's admission enforces, as the Cluster API and DCS webhooks do
 * (DOMAIN.md, "Where each rule is enforced"): R-MD-2, R-DISK-2, R-DISK-3 and R-TPL-4. Every other
 * rule is the console's: kubectl can still create what the console warns about. Each hook takes
 * the object and, on update, the old object; paths are the object's own (`spec.pool.2.…`).
 * Errors deny the request; warnings become admission warnings.
 */
export type WebhookRule<T> = (object: T, oldObject: T | undefined) => RuleIssue[];

const ENFORCED_DISK_RULES = new Set(['R-DISK-2', 'R-DISK-3']);

export const webhookRules: {
  MachineDeployment: WebhookRule<MachineDeployment>;
  DCSIpHostnamePool: WebhookRule<DCSIpHostnamePool>;
  DCSMachineTemplate: WebhookRule<DCSMachineTemplate>;
} = {
  /** R-MD-2 on create and update. */
  MachineDeployment: (md) =>
    checkRolloutStrategy(md.spec?.strategy?.rollingUpdate ?? {}, 'spec.strategy.rollingUpdate'),

  /**
   * R-DISK-2 and R-DISK-3 on update: in every entry kept (matched by ip), persistent disks are
   * never removed and their format, options and pciType never change. Removing a whole entry is
   * R-POOL-6's business (allowed), not the webhook's.
   */
  DCSIpHostnamePool: (pool, old) => {
    if (!old) return [];
    const oldByIp = new Map((old.spec?.pool ?? []).map((e) => [e.ip, e]));
    return (pool.spec?.pool ?? []).flatMap((entry, i) => {
      const before = oldByIp.get(entry.ip);
      if (!before) return [];
      return checkDiskChanges(
        before.persistentDisk ?? [],
        entry.persistentDisk ?? [],
        joinPath('spec.pool', i, 'persistentDisk'),
        { ip: entry.ip },
      ).filter((issue) => ENFORCED_DISK_RULES.has(issue.rule));
    });
  },

  /** R-TPL-4 on update: the template's spec is immutable; a change is a new template. */
  DCSMachineTemplate: (template, old) =>
    old ? checkTemplateSpecImmutable(old.spec, template.spec, 'spec') : [],
};
