/**
 * A metav1.LabelSelector matched against labels, as `metav1.LabelSelectorAsSelector` reads it:
 * every matchLabels pair, and every matchExpression (In, NotIn, Exists, DoesNotExist). An empty
 * selector matches everything; an operator it does not know matches nothing (upstream refuses to
 * build such a selector). Keys are looked up as own properties only.
 */
export interface LabelSelectorLike {
  matchLabels?: Record<string, string> | null | undefined;
  matchExpressions?:
    | readonly { key: string; operator: string; values?: readonly string[] | undefined }[]
    | undefined;
}

export function selectorMatches(
  selector: LabelSelectorLike | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  if (!selector) return false;
  const has = (k: string) => labels !== undefined && Object.hasOwn(labels, k);
  const get = (k: string) => (has(k) ? labels?.[k] : undefined);
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    if (get(k) !== v) return false;
  }
  for (const e of selector.matchExpressions ?? []) {
    const value = get(e.key);
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
        if (value === undefined || !values.includes(value)) return false;
        break;
      case 'NotIn':
        if (value !== undefined && values.includes(value)) return false;
        break;
      case 'Exists':
        if (!has(e.key)) return false;
        break;
      case 'DoesNotExist':
        if (has(e.key)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
