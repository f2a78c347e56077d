import type { RuleIssue } from '@dcs/domain';
import { Box } from '@mui/material';
import {
  createContext,
  useContext,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { ProblemList } from './ProblemList';

/**
 * Which issue paths the fields on screen show. Every field that shows rule issues says so while it
 * renders (`useFieldIssues`, `useShownIssuePaths`); the summary lists every issue that no field
 * shows, so that a problem the form counts is never invisible, whatever its path (an array, a
 * whole object, a field the form does not offer).
 */
class ShownPaths {
  private readonly exact = new Map<object, readonly string[]>();
  private readonly under = new Map<object, readonly string[]>();
  private readonly listeners = new Set<() => void>();
  private version = 0;

  set(owner: object, exact: readonly string[], under: readonly string[]): void {
    const same = (a: readonly string[] | undefined, b: readonly string[]) =>
      a?.length === b.length && a.every((p, i) => p === b[i]);
    if (same(this.exact.get(owner), exact) && same(this.under.get(owner), under)) return;
    this.exact.set(owner, exact);
    this.under.set(owner, under);
    this.changed();
  }

  delete(owner: object): void {
    if (this.exact.delete(owner) || this.under.delete(owner)) this.changed();
  }

  shows(path: string): boolean {
    for (const paths of this.exact.values()) if (paths.includes(path)) return true;
    for (const prefixes of this.under.values())
      if (prefixes.some((p) => path === p || path.startsWith(`${p}.`))) return true;
    return false;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  private changed() {
    this.version++;
    for (const l of this.listeners) l();
  }
}

const ShownPathsContext = createContext<ShownPaths | undefined>(undefined);

/** A form (or dialog) whose summary lists the issues none of its fields shows. */
export function IssueScope({ children }: { children: ReactNode }) {
  const [paths] = useState(() => new ShownPaths());
  return <ShownPathsContext.Provider value={paths}>{children}</ShownPathsContext.Provider>;
}

/**
 * For a component that shows issues at its fields: `show(path)` while rendering says that the
 * issues at exactly `path` are shown; `showUnder(prefix)` that those at or below it are.
 * Published after each commit; withdrawn when the component unmounts.
 */
export function useShownIssuePaths(): {
  show: (path: string) => void;
  showUnder: (prefix: string) => void;
} {
  const registry = useContext(ShownPathsContext);
  const owner = useRef({}).current;
  const exact: string[] = [];
  const under: string[] = [];
  useLayoutEffect(() => {
    registry?.set(owner, exact, under);
  });
  useLayoutEffect(() => () => registry?.delete(owner), [registry, owner]);
  return {
    show: (path) => {
      exact.push(path);
    },
    showUnder: (prefix) => {
      under.push(prefix);
    },
  };
}

const noop = () => () => undefined;

/**
 * The summary of a form: every issue that no field in its IssueScope shows, errors first. Its
 * list is where "N problems to fix" leads when the first problem is not at a field.
 */
export function UnshownIssues({ issues, id }: { issues: readonly RuleIssue[]; id?: string }) {
  const registry = useContext(ShownPathsContext);
  useSyncExternalStore(registry?.subscribe ?? noop, registry?.getVersion ?? (() => 0));
  const rest = registry ? issues.filter((i) => !registry.shows(i.path)) : issues;
  if (rest.length === 0) return null;
  return (
    <Box id={id} tabIndex={-1} data-issue-summary="" sx={{ outline: 'none' }}>
      <ProblemList items={rest} />
    </Box>
  );
}

/**
 * Moves focus to the first problem the user must fix inside `root`: the first invalid field, else
 * the summary of issues no field shows. What "N problems to fix" does when clicked.
 */
export function focusFirstProblem(root: HTMLElement | null): void {
  const target = root?.querySelector<HTMLElement>(
    '[aria-invalid="true"], [data-issue="error"], [data-issue-summary]',
  );
  if (!target) return;
  target.scrollIntoView({ block: 'center' });
  target.focus();
}
