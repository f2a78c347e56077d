import { findKind } from '@dcs/domain';
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

export function seedClientInProcess(client: InProcessClient): SeedClient {
  return {
    create: (obj) => client.create(obj),
    get: (ref) => Promise.resolve(client.get(ref)),
    patch: (ref, p) => client.patch(ref, 'merge', p),
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
