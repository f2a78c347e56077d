import type { KubeConfigLike } from './kubeconfig';
import type { KubeObject } from './kube-object';
import { isGoneError, isRecord } from './api-error';
import { getJson } from './http-get';
import type { ResourceSpec } from './resource';
import { collectionUrl } from './url';

export interface ListResult {
  readonly items: KubeObject[];
  /** The snapshot's resourceVersion: the WATCH starts here. Opaque. */
  readonly resourceVersion: string;
}

export interface ListOptions {
  /** Objects per page (`limit`); 0 lists everything in one response. */
  readonly pageSize: number;
  readonly idleTimeoutMs: number;
  readonly signal: AbortSignal;
  /** Called once per HTTP request, for metrics. */
  readonly onRequest?: () => void;
}

/**
 * A complete, consistent LIST, page by page (`limit` + `continue`). All pages belong to the
 * snapshot of the first one. If the continue token expires mid-way (410: the snapshot was
 * compacted), a consistent paginated list is no longer possible, so — like client-go's pager —
 * we fall back to one unpaginated LIST instead of looping on pages that keep expiring.
 * No `resourceVersion` is sent: the read is served from etcd, so a relist after 410 can never
 * travel back in time (a `resourceVersion=0` list may be answered from a stale cache).
 */
export async function listAll(
  kc: KubeConfigLike,
  spec: ResourceSpec,
  options: ListOptions,
): Promise<ListResult> {
  try {
    return await listPages(kc, spec, options, options.pageSize);
  } catch (error) {
    if (error instanceof ExpiredContinue) return listPages(kc, spec, options, 0);
    throw error;
  }
}

/** Marks a 410 on a continue request (not on the first page) so the caller can fall back. */
class ExpiredContinue extends Error {
  override readonly cause: unknown;
  constructor(cause: unknown) {
    super('continue token expired');
    this.cause = cause;
  }
}

async function listPages(
  kc: KubeConfigLike,
  spec: ResourceSpec,
  options: ListOptions,
  limit: number,
): Promise<ListResult> {
  const items: KubeObject[] = [];
  let resourceVersion: string | undefined;
  let token: string | undefined;
  do {
    const url = listUrl(kc, spec, limit, token);
    options.onRequest?.();
    let body: unknown;
    try {
      body = await getJson(kc, url, {
        signal: options.signal,
        idleTimeoutMs: options.idleTimeoutMs,
      });
    } catch (error) {
      throw token !== undefined && isGoneError(error) ? new ExpiredContinue(error) : error;
    }
    const page = parsePage(body);
    resourceVersion ??= page.resourceVersion;
    for (const item of page.items) items.push(item);
    token = page.continueToken;
  } while (token !== undefined);
  return { items, resourceVersion: resourceVersion ?? '' };
}

function listUrl(kc: KubeConfigLike, spec: ResourceSpec, limit: number, token?: string): URL {
  return collectionUrl(kc, spec, {
    limit: limit > 0 ? String(limit) : undefined,
    continue: token,
  });
}

interface Page {
  readonly items: KubeObject[];
  readonly resourceVersion: string | undefined;
  readonly continueToken: string | undefined;
}

/**
 * Reads one page. Items of built-in kinds come without `kind`/`apiVersion` (only the list has
 * them); we fill them in so that listed objects look like watched ones.
 */
function parsePage(body: unknown): Page {
  if (!isRecord(body) || !Array.isArray(body.items)) {
    throw new Error('LIST response is not a list (no items array)');
  }
  const metadata = isRecord(body.metadata) ? body.metadata : {};
  const listKind = typeof body.kind === 'string' ? body.kind : undefined;
  const kind = listKind?.endsWith('List') ? listKind.slice(0, -'List'.length) : undefined;
  const apiVersion = typeof body.apiVersion === 'string' ? body.apiVersion : undefined;
  const items: KubeObject[] = [];
  for (const item of body.items as unknown[]) {
    if (!isKubeObject(item)) continue;
    items.push({
      ...(apiVersion !== undefined ? { apiVersion } : {}),
      ...(kind !== undefined ? { kind } : {}),
      ...item,
    });
  }
  const rv = metadata.resourceVersion;
  const token = metadata.continue;
  return {
    items,
    resourceVersion: typeof rv === 'string' && rv !== '' ? rv : undefined,
    continueToken: typeof token === 'string' && token !== '' ? token : undefined,
  };
}

/** Enough of an object to be cached: a metadata record with a string name. */
export function isKubeObject(value: unknown): value is KubeObject {
  return isRecord(value) && isRecord(value.metadata) && typeof value.metadata.name === 'string';
}
