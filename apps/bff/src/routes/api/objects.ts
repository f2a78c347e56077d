import { asServed, findKind, type KindName } from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CachedKind } from '../../cache/watched-kinds';
import { notFound } from '../../http/errors';
import { errorResponses, ObjectParams } from '../../http/schemas';
import { getObject } from '../../kube/objects';
import { speaking } from '../../kube/rest';

/**
 * `GET /namespaces/{ns}/objects/{kind}/{name}`: the raw object for the YAML view, in the version
 * the cluster serves. Cached kinds come from the cache after a `get` access review; others are read
 * with the user's credential.
 * A Secret never carries its data here, whatever the user may read.
 */

const CACHED: ReadonlySet<string> = new Set<CachedKind>([
  'Cluster',
  'KubeadmControlPlane',
  'MachineDeployment',
  'MachineSet',
  'Machine',
  'DCSMachine',
  'DCSMachineTemplate',
  'KubeadmConfigTemplate',
  'DCSIpHostnamePool',
]);

/**
 * Managed fields are noise in a YAML view. A Secret's values hide in more places than `data` and
 * `stringData`: `kubectl apply` copies the whole manifest into the annotation
 * `kubectl.kubernetes.io/last-applied-configuration`, and other tools (kapp, Argo CD, Helm's
 * post-renderers) keep copies in annotations of their own. So a Secret keeps the names of its data
 * keys and annotations, and no value of either.
 */
function withoutSecrets(kind: string, obj: Record<string, unknown>): Record<string, unknown> {
  const { metadata, ...rest } = obj;
  const { managedFields: _m, ...meta } = (metadata ?? {}) as Record<string, unknown>;
  if (kind !== 'Secret') return { ...rest, metadata: meta };
  const { data, stringData: _s, ...secret } = rest;
  const { annotations, ...plainMeta } = meta;
  const annotationKeys = Object.keys(annotations ?? {});
  return {
    ...secret,
    metadata: {
      ...plainMeta,
      ...(annotationKeys.length
        ? { annotations: Object.fromEntries(annotationKeys.map((k) => [k, HIDDEN])) }
        : {}),
    },
    dataKeys: Object.keys(data ?? {}),
  };
}

const HIDDEN = '(hidden: a Secret annotation may hold its values)';

const objects: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/namespaces/:namespace/objects/:kind/:name',
    {
      schema: {
        tags: ['objects'],
        summary: 'The raw object for the YAML view (Secret data never included)',
        params: ObjectParams,
        response: { 200: z.looseObject({ metadata: z.looseObject({}) }), ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, name } = request.params;
      const info = findKind(request.params.kind);
      if (info?.scope !== 'Namespaced')
        throw notFound(`unknown kind ${request.params.kind}`, 'kind');
      const kind = info.kind as KindName;
      const principal = await app.principalOf(request);
      if (CACHED.has(kind)) {
        await app.authorize(principal, [{ verb: 'get', kind, namespace, name }]);
        const obj = app.cache.store(kind as CachedKind).get(namespace, name) as
          Record<string, unknown> | undefined;
        if (!obj) throw notFound(`${kind} ${namespace}/${name} not found`, 'name');
        // The YAML view shows the object as the cluster serves it (issue 23), not the hub.
        return withoutSecrets(kind, asServed(obj, app.apiVersions.choice)) as {
          metadata: Record<string, unknown>;
        };
      }
      const versions = app.apiVersions.choice;
      const obj = (await getObject(
        speaking(principal.client, versions),
        kind,
        namespace,
        name,
      )) as Record<string, unknown>;
      return withoutSecrets(kind, asServed(obj, versions)) as { metadata: Record<string, unknown> };
    },
  );
  return Promise.resolve();
};

export default objects;
