import { isMessageKey, type MessageKey } from '../i18n/messages';
import { checkCpaasPlacement, checkTemplateCpaas, CPAAS_MOUNT } from '../rules/disk';
import type { RuleIssue } from '../rules/issue';
import { checkTemplateMounts } from '../rules/template';
import { joinPath } from '../rules/util';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import type { DCSMachineTemplate } from '../schemas/dcs';
import type { IpPoolView } from './ippool';
import { viewProblem, type ViewProblem } from './problem';

/**
 * What the rules say about a pool as it stands, so that its card does not show a green pool that
 * the next operation would refuse. The checks are the very functions the forms and routes run
 * (one rule, one place); here they judge the live objects instead of a request.
 */

/** How many entry ips a grouped problem names; the IP pool's page lists all of them. */
const LISTED_IPS = 5;

const listed = (ips: readonly string[]) =>
  ips.slice(0, LISTED_IPS).join(', ') +
  (ips.length > LISTED_IPS ? ` (+${ips.length - LISTED_IPS})` : '');

/** A rule's own issue shown as a pool problem, in the rule's own words. */
function fromIssue(code: string, issue: RuleIssue): ViewProblem {
  const messageKey: MessageKey | undefined = isMessageKey(issue.messageKey)
    ? issue.messageKey
    : undefined;
  return {
    code,
    severity: issue.severity,
    rule: issue.rule,
    messageKey: messageKey ?? 'view.problem.ruleIssue',
    params: messageKey ? issue.params : { message: issue.message },
    message: issue.message,
  };
}

/**
 * R-TPL-2 and R-DISK-5 on a worker pool: the required mounts of its machine template, and
 * /var/cpaas mounted exactly once on every VM, by the template (legacy layout, shown apart as
 * `legacy-disk-layout`) or by each IP pool entry's persistent disk (provider ≥ 1.0.16), else by
 * the template (older providers). Per-entry findings are grouped: one problem per rule, naming
 * the entries.
 */
export function workerPoolRuleProblems(
  template: DCSMachineTemplate | undefined,
  ipPool: IpPoolView | undefined,
  providerVersion: string | undefined,
): ViewProblem[] {
  const spec = template?.spec?.template.spec;
  if (!spec) return [];
  const out: ViewProblem[] = checkTemplateMounts(spec, '').map((i) =>
    fromIssue(`template-${i.messageKey}`, i),
  );
  // Without a known provider version neither layout can be told wrong (R-VER-2).
  if (providerVersion === undefined) return out;
  const ctx = { providerVersion };
  out.push(
    ...checkTemplateCpaas(spec, ctx, '')
      // The legacy layout (a warning) has its own problem with the pointer to migrate.
      .filter((i) => i.severity === 'error')
      .map((i) => fromIssue('cpaas-not-in-template', i)),
  );
  if (!ipPool) return out;
  const issues = checkCpaasPlacement(
    spec,
    ipPool.entries.map((e, i) => ({
      // What the placement rule reads of an entry (the view adds who holds it).
      entry: { ip: e.ip, mask: e.mask, gateway: e.gateway, persistentDisk: e.persistentDisk },
      path: joinPath('spec.pool', i),
      inRequest: false,
    })),
    ctx,
    '',
  );
  const ipsOf = (key: string) => [
    ...new Set(issues.filter((i) => i.messageKey === key).map((i) => String(i.params.ip))),
  ];
  const missing = ipsOf('disk.cpaasMissing');
  if (missing.length > 0) {
    out.push(
      viewProblem(
        'cpaas-missing',
        'error',
        'view.problem.cpaasMissing',
        {
          path: CPAAS_MOUNT,
          template: template.metadata.name ?? '',
          pool: ipPool.name,
          count: missing.length,
          ips: listed(missing),
        },
        'R-DISK-5',
      ),
    );
  }
  for (const path of new Set(
    issues.filter((i) => i.messageKey === 'disk.mountedTwice').map((i) => String(i.params.path)),
  )) {
    const ips = [
      ...new Set(
        issues
          .filter((i) => i.messageKey === 'disk.mountedTwice' && i.params.path === path)
          .map((i) => String(i.params.ip)),
      ),
    ];
    out.push(
      viewProblem(
        `mounted-twice-${path}`,
        'error',
        'view.problem.mountedTwice',
        {
          path,
          template: template.metadata.name ?? '',
          pool: ipPool.name,
          count: ips.length,
          ips: listed(ips),
        },
        'R-TPL-2',
      ),
    );
  }
  return out;
}

/** The number of control-plane machines the console keeps (U-2: fixed at 3 for high availability). */
export const CONTROL_PLANE_REPLICAS = 3;

/**
 * U-2 on a KubeadmControlPlane as it stands: an even replica count gives etcd no more fault
 * tolerance than one machine fewer and Cluster API's KubeadmControlPlane webhook refuses it with
 * stacked etcd (an error); any other count than 3 is not the high-availability layout the
 * console keeps (a warning).
 */
export function controlPlaneRuleProblems(kcp: KubeadmControlPlane): ViewProblem[] {
  // Unset, Cluster API defaults it to 1.
  const replicas = kcp.spec?.replicas ?? 1;
  if (replicas === CONTROL_PLANE_REPLICAS) return [];
  if (replicas % 2 === 0) {
    return [
      viewProblem(
        'control-plane-replicas-even',
        'error',
        'view.problem.controlPlaneReplicasEven',
        { replicas, expected: CONTROL_PLANE_REPLICAS },
        'U-2',
      ),
    ];
  }
  return [
    viewProblem(
      'control-plane-replicas-not-ha',
      'warning',
      'view.problem.controlPlaneReplicasNotHa',
      { replicas, expected: CONTROL_PLANE_REPLICAS },
      'U-2',
    ),
  ];
}
