import type { ApiVersionChoice } from '../api-versions';
import { CAPI_HUB_VERSION, capiConvertible, fromHub, toHub, type CapiObjectLike } from './convert';

/**
 * The edge of issue 23's one model, for the BFF and the simulated controllers alike: Cluster API
 * objects the management cluster serves in another version than the hub (v1beta2, on Cluster API
 * ≥ v1.11) become hub objects as they arrive — from a watch, a GET, a write's answer — and hub
 * objects are sent or shown as the cluster serves them. (Plans are re-expressed by
 * `planForVersions`.) Anything else passes as it is, uncopied: these run on every watch event.
 */

function groupVersionOf(obj: CapiObjectLike): { group: string; version: string } | undefined {
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return undefined;
  const slash = obj.apiVersion.indexOf('/');
  if (slash < 0 || !capiConvertible(obj.apiVersion, obj.kind)) return undefined;
  return { group: obj.apiVersion.slice(0, slash), version: obj.apiVersion.slice(slash + 1) };
}

/** `obj` as the console's model reads it: converted when it came in a spoke version. */
export function asHub<T>(obj: T): T {
  if (typeof obj !== 'object' || obj === null) return obj;
  const gv = groupVersionOf(obj as CapiObjectLike);
  if (!gv || gv.version === CAPI_HUB_VERSION) return obj;
  return toHub(obj as CapiObjectLike) as T;
}

/** A hub object as the cluster serves it, given the versions chosen from discovery. */
export function asServed<T>(obj: T, versions: ApiVersionChoice): T {
  if (typeof obj !== 'object' || obj === null) return obj;
  const gv = groupVersionOf(obj as CapiObjectLike);
  if (gv?.version !== CAPI_HUB_VERSION) return obj;
  const served = Object.hasOwn(versions, gv.group) ? versions[gv.group] : undefined;
  if (served === undefined || served === CAPI_HUB_VERSION) return obj;
  return fromHub(obj as CapiObjectLike, served) as T;
}
