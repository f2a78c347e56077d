import type { RuleIssue } from '@dcs/domain';

/**
 * Dotted paths of the leaves that are `true` in a react-hook-form state tree (`touchedFields`,
 * `dirtyFields`): `{ipPool: {entries: [{ip: true}]}}` → `['ipPool.entries.0.ip']`.
 */
export function markedPaths(tree: unknown, prefix = ''): string[] {
  if (tree === true) return prefix === '' ? [] : [prefix];
  if (typeof tree !== 'object' || tree === null) return [];
  return Object.entries(tree).flatMap(([key, value]) =>
    markedPaths(value, prefix === '' ? key : `${prefix}.${key}`),
  );
}

const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

/**
 * The issues a form shows: a fresh, untouched form shows none; a field's issues appear once the
 * user has edited or left that field (or a field within it, or the block that holds it), and
 * every issue appears once the user has tried to submit. Issues of the whole request (path `''`)
 * wait for the submit.
 */
export function visibleIssues(
  issues: readonly RuleIssue[],
  state: { submitted: boolean; edited: readonly string[] },
): RuleIssue[] {
  if (state.submitted) return [...issues];
  return issues.filter((i) => i.path !== '' && state.edited.some((p) => related(i.path, p)));
}
