import type { Plan } from '@dcs/domain';
import { request, type RequestOptions } from './api-client';

/**
 * Every mutating route of the BFF accepts `?dryRun=true` and then answers with the Plan (steps,
 * diffs, kubectl equivalents, rule issues) without changing anything; without it, it executes.
 */
export async function planRequest(
  path: string,
  method: NonNullable<RequestOptions['method']>,
  body: unknown,
  dryRun: boolean,
): Promise<Plan | undefined> {
  const res = await request<unknown>(path, { method, body, query: dryRun ? { dryRun: true } : {} });
  return planOf(res);
}

/** The Plan in a response: the body itself, or its `plan` field. */
export function planOf(res: unknown): Plan | undefined {
  if (typeof res !== 'object' || res === null) return undefined;
  if ('steps' in res && 'operation' in res) return res as Plan;
  if ('plan' in res) return planOf(res.plan);
  return undefined;
}
