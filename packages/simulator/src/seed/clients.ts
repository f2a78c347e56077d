import { asHub, asServed, findKind, type ApiVersionChoice } from '@dcs/domain';
import type { KubeClient } from '../runtime/client';
import type { SeedClient } from './index';
import type { Obj } from './objects';

/** SeedClients over the two ways to reach a management cluster. */

interface Ref {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

/** The embedded API server's in-process client (`server.client` of @dcs/apiserver). */
export interface InProcessClient {
  create(obj: Obj): Promise<unknown>;
  get(ref: Ref): unknown;
  patch(ref: Ref, type: 'merge', patch: unknown): Promise<unknown>;
}

/**
 * The seed writes the hub (issue 23); `versions` are what the server speaks for the Cluster API
 * groups (`EmbeddedCluster.capiVersions`), or a function that reads them at each call, for a
 * seed that goes on in the background while Cluster API is upgraded under it: objects and
 * references are converted to them, and what is read back to the hub. Merge patches are of
 * metadata, the same in every version.
 */
export function seedClientInProcess(
  client: InProcessClient,
  versions: ApiVersionChoice | (() => ApiVersionChoice) = {},
): SeedClient {
  const now = typeof versions === 'function' ? versions : () => versions;
  const served = (ref: Ref): Ref => {
    const choice = now();
    const group = ref.apiVersion.split('/')[0] ?? '';
    const version = Object.hasOwn(choice, group) ? choice[group] : undefined;
    return version ? { ...ref, apiVersion: `${group}/${version}` } : ref;
  };
  return {
    create: (obj) => client.create(asServed(obj, now())),
    // Synchronous throws of the in-process client become rejections, as over HTTP.
    get: (ref) => Promise.resolve(ref).then((r) => asHub(client.get(served(r)))),
    patch: (ref, p) => client.patch(served(ref), 'merge', p),
  };
}

function kindOf(kind: string) {
  const info = findKind(kind);
  if (!info) throw new Error(`unknown kind ${kind}`);
  return info;
}

/** Over HTTP with a kubeconfig (the controllers' client). */
export function seedClientOverHttp(client: KubeClient): SeedClient {
  return {
    create: (obj) => client.create(kindOf(obj.kind), obj),
    get: (ref) => client.get(kindOf(ref.kind), ref.namespace, ref.name),
    patch: (ref, p) => client.patch(kindOf(ref.kind), ref.namespace, ref.name, 'merge', p),
  };
}
