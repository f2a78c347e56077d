/** The order kube-apiserver lists a group's versions in (its first is the preferred one). */

const VERSION_RE = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * k8s.io/apimachinery's `version.CompareKubeAwareVersionStrings`, as a sort comparator (< 0:
 * `a` comes first): GA before beta before alpha, a higher major first, then a higher
 * alpha/beta number; strings that are not Kubernetes versions last, in alphabetical order.
 */
export function compareVersionPriority(a: string, b: string): number {
  const ma = VERSION_RE.exec(a);
  const mb = VERSION_RE.exec(b);
  if (!ma && !mb) return a < b ? -1 : a > b ? 1 : 0;
  if (!ma) return 1;
  if (!mb) return -1;
  const rank = (m: RegExpExecArray) => (m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1);
  const ra = rank(ma);
  const rb = rank(mb);
  if (ra !== rb) return rb - ra;
  const majorA = Number(ma[1]);
  const majorB = Number(mb[1]);
  if (majorA !== majorB) return majorB - majorA;
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}
