/**
 * Discovery as kubectl 1.2x–1.3x asks for it: the aggregated documents (apidiscovery.k8s.io v2,
 * and v2beta1 for older clients) when the Accept header asks for them, otherwise the legacy
 * /api, /apis, /apis/{group} and /{prefix}/{group}/{version} documents.
 */
import type { Registry, ResourceType } from './registry';

const SUB_VERBS = ['get', 'patch', 'update'];

export function aggregatedVersion(accept: string): 'v2' | 'v2beta1' | undefined {
  // Clients list the versions they take in order of preference; serve the first we know.
  for (const part of accept.split(',')) {
    if (!part.includes('as=APIGroupDiscoveryList') || !part.includes('g=apidiscovery.k8s.io'))
      continue;
    if (part.includes('v=v2beta1')) return 'v2beta1';
    if (/v=v2(;|$)/.test(part)) return 'v2';
  }
  return undefined;
}

export function aggregatedContentType(v: 'v2' | 'v2beta1'): string {
  return `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`;
}

function subresources(rt: ResourceType): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (rt.scale) {
    out.push({
      subresource: 'scale',
      responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      verbs: SUB_VERBS,
    });
  }
  if (rt.eviction) {
    out.push({
      subresource: 'eviction',
      responseKind: { group: 'policy', version: 'v1', kind: 'Eviction' },
      verbs: ['create'],
    });
  }
  if (rt.statusSubresource) {
    out.push({
      subresource: 'status',
      responseKind: { group: rt.group, version: rt.version, kind: rt.kind },
      verbs: SUB_VERBS,
    });
  }
  return out;
}

function aggregatedResource(rt: ResourceType): Record<string, unknown> {
  const r: Record<string, unknown> = {
    resource: rt.plural,
    responseKind: { group: rt.group, version: rt.version, kind: rt.kind },
    scope: rt.scope,
    singularResource: rt.singular,
    verbs: rt.verbs,
  };
  if (rt.shortNames.length) r.shortNames = rt.shortNames;
  if (rt.categories.length) r.categories = rt.categories;
  const subs = subresources(rt);
  if (subs.length) r.subresources = subs;
  return r;
}

export function aggregatedDiscovery(
  registry: Registry,
  core: boolean,
  v: 'v2' | 'v2beta1',
): Record<string, unknown> {
  const groups = new Map<string, { version: string; resources: ResourceType[] }[]>();
  for (const gv of registry.groupVersions()) {
    if ((gv.group === '') !== core) continue;
    const list = groups.get(gv.group) ?? [];
    list.push({ version: gv.version, resources: gv.resources });
    groups.set(gv.group, list);
  }
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${v}`,
    metadata: {},
    items: [...groups.entries()].map(([group, versions]) => ({
      metadata: group ? { name: group, creationTimestamp: null } : { creationTimestamp: null },
      versions: versions.map((ver) => ({
        version: ver.version,
        resources: ver.resources.map(aggregatedResource),
        freshness: 'Current',
      })),
    })),
  };
}

export function apiVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function apiGroup(group: string, versions: string[]): Record<string, unknown> {
  const vs = versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions: vs, preferredVersion: vs[0] };
}

export function apiGroupList(registry: Registry): Record<string, unknown> {
  const groups = new Map<string, string[]>();
  for (const gv of registry.groupVersions()) {
    if (!gv.group) continue;
    const vs = groups.get(gv.group) ?? [];
    vs.push(gv.version);
    groups.set(gv.group, vs);
  }
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [...groups.entries()].map(([g, vs]) => apiGroup(g, vs)),
  };
}

export function apiGroupDoc(
  registry: Registry,
  group: string,
): Record<string, unknown> | undefined {
  const versions = registry
    .groupVersions()
    .filter((gv) => gv.group === group)
    .map((gv) => gv.version);
  if (!versions.length) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group, versions) };
}

export function apiResourceList(
  registry: Registry,
  group: string,
  version: string,
): Record<string, unknown> | undefined {
  const gv = registry.groupVersions().find((x) => x.group === group && x.version === version);
  if (!gv) return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const rt of gv.resources) {
    const r: Record<string, unknown> = {
      name: rt.plural,
      singularName: rt.singular,
      namespaced: rt.scope === 'Namespaced',
      kind: rt.kind,
      verbs: rt.verbs,
    };
    if (rt.shortNames.length) r.shortNames = rt.shortNames;
    if (rt.categories.length) r.categories = rt.categories;
    resources.push(r);
    if (rt.scale) {
      resources.push({
        name: `${rt.plural}/scale`,
        singularName: '',
        namespaced: rt.scope === 'Namespaced',
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: SUB_VERBS,
      });
    }
    if (rt.eviction) {
      resources.push({
        name: `${rt.plural}/eviction`,
        singularName: '',
        namespaced: true,
        group: 'policy',
        version: 'v1',
        kind: 'Eviction',
        verbs: ['create'],
      });
    }
    if (rt.statusSubresource) {
      resources.push({
        name: `${rt.plural}/status`,
        singularName: '',
        namespaced: rt.scope === 'Namespaced',
        kind: rt.kind,
        verbs: SUB_VERBS,
      });
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  };
}
