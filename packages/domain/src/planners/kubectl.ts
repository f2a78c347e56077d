import { kindTable, resourcePath } from '../kinds';
import type { PlanStep } from './plan';

/**
 * The kubectl command equivalent to a plan step, runnable as printed (bash): creates go through
 * a quoted heredoc of JSON (valid YAML; domain carries no YAML library), patches through `-p`
 * with the same ops the console sends, test ops included, and deletes through `--raw` with
 * DeleteOptions, because `kubectl delete` has no flag for preconditions.
 */

const SAFE_WORD = /^[A-Za-z0-9._/:=@%+-]+$/;

/** Quotes a word for a POSIX shell; plain words stay as they are. */
export function shellQuote(word: string): string {
  return SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const heredoc = (json: unknown) => `<<'EOF'\n${JSON.stringify(json, null, 2)}\nEOF`;

/** The DeleteOptions body of a delete step. */
export function deleteOptionsOf(step: Extract<PlanStep, { verb: 'delete' }>) {
  const { resourceVersion, uid } = step.precondition ?? {};
  const preconditions = {
    ...(uid ? { uid } : {}),
    ...(resourceVersion ? { resourceVersion } : {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'DeleteOptions',
    ...(step.propagationPolicy ? { propagationPolicy: step.propagationPolicy } : {}),
    ...(Object.keys(preconditions).length ? { preconditions } : {}),
  };
}

export function kubectlFor(step: PlanStep): string {
  return kubectlIn(step);
}

/**
 * The kubectl command of a step sent in `version` rather than the console's own (issue 23: a
 * plan re-expressed for a cluster serving v1beta2, `wire.ts`): kubectl is told the version
 * (`machinedeployments.v1beta2.cluster.x-k8s.io`), since its preferred one may differ.
 */
export function kubectlForVersion(step: PlanStep, version: string): string {
  return kubectlIn(step, version);
}

function kubectlIn(step: PlanStep, version?: string): string {
  const table = kindTable[step.kind];
  const info = version && table.group ? { ...table, version } : table;
  const resource =
    version && info.group ? `${info.plural}.${version}.${info.group}` : info.singular;
  const target = `${resource} ${shellQuote(step.name)} -n ${shellQuote(step.namespace)}`;
  const wait = step.waitFor
    ? `kubectl wait --for=delete ${kindTable[step.waitFor.kind].singular}/${shellQuote(step.waitFor.name)} -n ${shellQuote(step.waitFor.namespace)} --timeout=${step.waitFor.timeoutSeconds}s && `
    : '';
  switch (step.verb) {
    case 'create':
      return `${wait}kubectl create -f - ${heredoc(step.body)}`;
    case 'update':
      return `${wait}kubectl replace -f - ${heredoc(step.body)}`;
    case 'patch': {
      const p = step.patch;
      const body = JSON.stringify(p.type === 'json' ? p.ops : p.doc);
      return `${wait}kubectl patch ${target} --type ${p.type} -p ${shellQuote(body)}`;
    }
    case 'delete': {
      const path = resourcePath(info, step.namespace, step.name);
      return `${wait}kubectl delete --raw ${shellQuote(path)} -f - ${heredoc(deleteOptionsOf(step))}`;
    }
  }
}
