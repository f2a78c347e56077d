import { asHub, kindAtVersion, resourcePath, type KindName } from '@dcs/domain';
import type { KubeClient } from './rest';

/**
 * Generic object verbs over the kinds table: the one place that builds object URLs. A Cluster API
 * kind is addressed in the version its client speaks (`client.apiVersions`, issue 23: what the
 * management cluster serves), every other kind in its own; what comes back is in the hub version
 * (bodies sent are the plan's, already in the served version: `planForVersions`).
 */

export interface KubeObjectLike {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

export interface WriteOptions {
  /** `dryRun=All`: the server runs admission and validation and stores nothing. */
  dryRun?: boolean;
  fieldManager?: string;
}

const FIELD_MANAGER = 'dcs-console';

const writeQuery = (o: WriteOptions) => ({
  ...(o.dryRun ? { dryRun: 'All' } : {}),
  fieldManager: o.fieldManager ?? FIELD_MANAGER,
});

const pathOf = (client: KubeClient, kind: KindName, namespace: string, name?: string) =>
  resourcePath(kindAtVersion(kind, client.apiVersions ?? {}), namespace, name);

/** What the server answered, in the console's model (a v1beta2 object converted to the hub). */
function asObject(body: unknown): KubeObjectLike {
  if (typeof body === 'object' && body !== null && 'metadata' in body)
    return asHub(body as KubeObjectLike);
  throw new Error('the API server answered without an object');
}

export async function getObject(
  client: KubeClient,
  kind: KindName,
  namespace: string,
  name: string,
): Promise<KubeObjectLike> {
  return asObject((await client.request('GET', pathOf(client, kind, namespace, name))).body);
}

export async function createObject(
  client: KubeClient,
  kind: KindName,
  namespace: string,
  body: unknown,
  options: WriteOptions = {},
): Promise<KubeObjectLike> {
  const res = await client.request('POST', pathOf(client, kind, namespace), {
    body,
    query: writeQuery(options),
  });
  return asObject(res.body);
}

export async function replaceObject(
  client: KubeClient,
  kind: KindName,
  namespace: string,
  name: string,
  body: unknown,
  options: WriteOptions = {},
): Promise<KubeObjectLike> {
  const res = await client.request('PUT', pathOf(client, kind, namespace, name), {
    body,
    query: writeQuery(options),
  });
  return asObject(res.body);
}

export type PatchType = 'json' | 'merge';

const PATCH_CONTENT_TYPE: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
};

export async function patchObject(
  client: KubeClient,
  kind: KindName,
  namespace: string,
  name: string,
  type: PatchType,
  patch: unknown,
  options: WriteOptions = {},
): Promise<KubeObjectLike> {
  const res = await client.request('PATCH', pathOf(client, kind, namespace, name), {
    body: patch,
    contentType: PATCH_CONTENT_TYPE[type],
    query: writeQuery(options),
  });
  return asObject(res.body);
}

export async function deleteObject(
  client: KubeClient,
  kind: KindName,
  namespace: string,
  name: string,
  deleteOptions: Record<string, unknown>,
  options: WriteOptions = {},
): Promise<unknown> {
  const res = await client.request('DELETE', pathOf(client, kind, namespace, name), {
    body: { ...deleteOptions, ...(options.dryRun ? { dryRun: ['All'] } : {}) },
    query: options.dryRun ? { dryRun: 'All' } : {},
  });
  return res.body;
}
