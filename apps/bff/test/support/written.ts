import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { dirname, join } from 'node:path';
import { KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import {
  getAtPointer,
  jsonEqual,
  kindTable,
  pointer,
  type KubeObject,
  type ObjectDiff,
  type Plan,
} from '@dcs/domain';

/**
 * "The plan equals what Apply writes": after an operation was applied, read every object its
 * plan's diffs name, the way an operator would (the real `kubectl`, or @kubernetes/client-node
 * where kubectl is not installed: CI installs nothing new), and compare with the diffs.
 */

const run = promisify(execFile);

function kubectlOnPath(): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const reader: 'kubectl' | 'client-node' = kubectlOnPath() ? 'kubectl' : 'client-node';
if (reader === 'client-node') {
  console.warn('no kubectl on PATH: written objects are read with @kubernetes/client-node instead');
}

const resourceOf = (kind: ObjectDiff['kind']) => {
  const k = kindTable[kind];
  return k.group ? `${k.plural}.${k.group}` : k.plural;
};

/** The objects a plan's diffs name, as the server holds them now (absent: not found). */
export async function readWritten(
  kubeconfig: string,
  plan: Plan,
): Promise<Map<string, KubeObject | undefined>> {
  const keys = plan.diffs.map((d) => `${d.kind}/${d.name}`);
  const found = new Map<string, KubeObject | undefined>(keys.map((k) => [k, undefined]));
  if (keys.length === 0) return found;
  if (reader === 'kubectl') {
    const refs = plan.diffs.map((d) => `${resourceOf(d.kind)}/${d.name}`);
    const { stdout } = await run(
      'kubectl',
      [
        '--kubeconfig',
        kubeconfig,
        // Its own discovery cache: kubectl's default is by host and port, which another server
        // (of another Cluster API release) may have had before.
        '--cache-dir',
        join(dirname(kubeconfig), 'kube-cache'),
        'get',
        ...refs,
        '-n',
        plan.namespace,
        '-o',
        'json',
        '--ignore-not-found',
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const list = stdout.trim()
      ? (JSON.parse(stdout) as { items?: KubeObject[] } & KubeObject)
      : undefined;
    const items = list ? (list.items ?? [list]) : [];
    for (const o of items) found.set(`${o.kind}/${o.metadata.name ?? ''}`, o);
    return found;
  }
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const api = KubernetesObjectApi.makeApiClient(kc);
  for (const d of plan.diffs) {
    const k = kindTable[d.kind];
    try {
      const o = await api.read({
        apiVersion: k.group ? `${k.group}/${k.version}` : k.version,
        kind: d.kind,
        metadata: { name: d.name, namespace: d.namespace },
      });
      found.set(`${d.kind}/${d.name}`, o as unknown as KubeObject);
    } catch (error) {
      if ((error as { code?: number }).code !== 404) throw error;
    }
  }
  return found;
}

/** Fields the server owns: never part of what a plan writes. */
const SERVER_OWNED = new Set([
  '/metadata/resourceVersion',
  '/metadata/uid',
  '/metadata/generation',
  '/metadata/creationTimestamp',
  '/metadata/managedFields',
]);
const serverOwned = (path: string) =>
  [...SERVER_OWNED].some((p) => path === p || path.startsWith(`${p}/`)) ||
  path.startsWith('/status');

/** Every leaf of a JSON value, as (pointer, value). */
function leaves(v: unknown, tokens: (string | number)[] = []): [string, unknown][] {
  if (Array.isArray(v) && v.length > 0) return v.flatMap((x, i) => leaves(x, [...tokens, i]));
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > 0) {
    return Object.entries(v).flatMap(([k, x]) => leaves(x, [...tokens, k]));
  }
  return [[pointer(...tokens), v]];
}

/**
 * Where what was read differs from the plan's diffs: for a created object, every field of the
 * planned object; for an updated one, every changed field (removed ones must be gone); a deleted
 * one must be gone or deleting. `deletedMeanwhile` names objects others may delete after the
 * write (O-SCALE-DOWN-TARGETED's marked machines, once Cluster API takes them).
 */
export function mismatches(
  plan: Plan,
  read: ReadonlyMap<string, KubeObject | undefined>,
  deletedMeanwhile: ReadonlySet<string> = new Set(),
): string[] {
  const out: string[] = [];
  for (const d of plan.diffs) {
    const key = `${d.kind}/${d.name}`;
    const live = read.get(key);
    if (d.change === 'delete') {
      if (live && live.metadata.deletionTimestamp === undefined) out.push(`${key}: still there`);
      continue;
    }
    if (!live) {
      if (!deletedMeanwhile.has(d.name)) out.push(`${key}: not found`);
      continue;
    }
    const expected: [string, unknown][] =
      d.change === 'create'
        ? leaves(d.after)
        : d.changes.flatMap((c) =>
            c.change === 'remove'
              ? [[c.path, undefined] as [string, unknown]]
              : leaves(c.after, []).map(([p, v]) => [`${c.path}${p}`, v] as [string, unknown]),
          );
    for (const [path, value] of expected) {
      if (serverOwned(path)) continue;
      const got = getAtPointer(live, path);
      if (value === undefined) {
        if (got.found)
          out.push(`${key} ${path}: planned removed, read ${JSON.stringify(got.value)}`);
      } else if (!got.found || !jsonEqual(got.value, value)) {
        out.push(
          `${key} ${path}: planned ${JSON.stringify(value)}, read ${got.found ? JSON.stringify(got.value) : '(absent)'}`,
        );
      }
    }
  }
  return out;
}
