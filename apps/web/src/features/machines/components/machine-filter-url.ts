import { MACHINE_PHASES, MACHINE_SORT_KEYS, type MachineSortKey } from '@dcs/domain';
import { emptyFilter, type MachineFilter } from './machine-filter';

/**
 * A machines table's filter in the address (issue 26 item 8: support staff share a link that
 * opens the same view). `filterFromSearch` is total: a value that is unknown, malformed or too
 * long is ignored (that field keeps its default), never thrown on; only the keys below are read,
 * so `__proto__`, `constructor` or `prototype` are inert. `filterToSearch` writes only what
 * differs from the default, and keeps the address's other parameters.
 *
 *   q        the free text          phase   a phase (repeated: any of them)
 *   pool     a pool's id            cond    a condition type not in its healthy state
 *   problems 1: problems only       name, node, ip: each field alone
 *   set      a MachineSet's name    sort    a column, `-` first for descending (`-age`)
 */
export const FILTER_KEYS = [
  'q',
  'pool',
  'problems',
  'set',
  'phase',
  'cond',
  'name',
  'node',
  'ip',
  'sort',
] as const;

/** Longest text a field takes from the address (a Kubernetes name's limit). */
export const MAX_FIELD = 253;
/** A Kubernetes object's name (pools, MachineSets). */
const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
/** A condition's type (Ready, NodeHealthy, VMProvisioned, a qualified name). */
const CONDITION_TYPE = /^[A-Za-z0-9][-A-Za-z0-9_./]{0,127}$/;
const PHASES: ReadonlySet<string> = new Set(MACHINE_PHASES);
const SORT_KEYS: ReadonlySet<string> = new Set(MACHINE_SORT_KEYS);

function text(params: URLSearchParams, key: string): string {
  const v = params.get(key);
  return v !== null && v.length <= MAX_FIELD ? v : '';
}

function matching(params: URLSearchParams, key: string, rule: RegExp): string {
  const v = params.get(key);
  return v !== null && rule.test(v) ? v : '';
}

/** The filter an address asks for; its unknown or bad parts ignored. */
export function filterFromSearch(search: string | URLSearchParams): MachineFilter {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const phases = [...new Set(params.getAll('phase').filter((p) => PHASES.has(p)))];
  const sort = params.get('sort') ?? '';
  const desc = sort.startsWith('-');
  const key = desc ? sort.slice(1) : sort;
  const set = matching(params, 'set', NAME);
  return {
    text: text(params, 'q'),
    pool: matching(params, 'pool', NAME),
    problemsOnly: params.get('problems') === '1',
    ...(set ? { machineSet: set } : {}),
    phases,
    condition: matching(params, 'cond', CONDITION_TYPE),
    name: text(params, 'name'),
    node: text(params, 'node'),
    ip: text(params, 'ip'),
    sort: SORT_KEYS.has(key)
      ? { key: key as MachineSortKey, dir: desc ? 'desc' : 'asc' }
      : emptyFilter.sort,
  };
}

/**
 * The address's parameters for `f`: those of `base` that are not the filter's, then each field
 * that differs from the default. Its values are bounded as `filterFromSearch` reads them.
 */
export function filterToSearch(f: MachineFilter, base?: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(base);
  for (const k of FILTER_KEYS) out.delete(k);
  const put = (key: string, value: string) => {
    if (value !== '' && value.length <= MAX_FIELD) out.set(key, value);
  };
  put('q', f.text);
  put('pool', f.pool);
  if (f.problemsOnly) out.set('problems', '1');
  put('set', f.machineSet ?? '');
  for (const p of f.phases) if (PHASES.has(p)) out.append('phase', p);
  put('cond', f.condition);
  put('name', f.name);
  put('node', f.node);
  put('ip', f.ip);
  const { key, dir } = f.sort;
  if (key !== emptyFilter.sort.key || dir !== emptyFilter.sort.dir)
    out.set('sort', dir === 'desc' ? `-${key}` : key);
  return out;
}
