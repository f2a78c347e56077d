import { describe, expect, it } from 'vitest';
import { safeParseObject, type ParsedKind } from '../schemas/registry';
import {
  aBootstrapTemplate,
  aCluster,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineSet,
} from '../testing';
import { secondsToDuration, durationToSeconds } from './duration';
import { fromHub, toHub } from './index';

/**
 * The hub is what the codebase already reads: an object the cluster serves in v1beta2, brought to
 * the hub by `toHub`, parses with the domain's own schemas (`kindSchemas`, which another part of
 * the work extends) and keeps what the views read; the conversion data it carries is a plain
 * annotation. Builders stand for the v1beta1 objects the cluster's controllers write today.
 */
describe('toHub of what a v1beta2 cluster serves parses as the domain model', () => {
  it.each([
    ['Cluster', aCluster()],
    ['MachineDeployment', aMachineDeployment()],
    ['MachineSet', aMachineSet()],
    ['Machine', aMachine()],
    ['KubeadmControlPlane', aKubeadmControlPlane()],
    ['KubeadmConfigTemplate', aBootstrapTemplate()],
  ] as const)('%s', (kind, built) => {
    const served = fromHub(built, 'v1beta2');
    expect(served.apiVersion.endsWith('/v1beta2')).toBe(true);
    const hub = toHub(served);
    const parsed = safeParseObject(kind as ParsedKind, hub);
    expect(parsed.success, parsed.success ? '' : parsed.error.message).toBe(true);
    // What the views read is the builder's, field for field, but for what a v1beta1 client of a
    // v1.14 cluster is served differently, as upstream's ConvertFrom writes it: the conversion
    // data, references rebuilt (Cluster API's own kinds at their contract version v1beta2, the
    // object's namespace), durations in Go's Duration.String().
    const { annotations: _a, ...meta } = hub.metadata as Record<string, unknown>;
    expect({ ...hub, metadata: meta }).toEqual(asServed(built));
  });
});

/** The builder's object as a v1.14 cluster serves it to a v1beta1 client (see above). */
function asServed<T>(built: T): T {
  const ns = (built as { metadata: { namespace?: string } }).metadata.namespace;
  const walk = (v: unknown, key: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, ''));
    if (typeof v === 'string' && /^node\w*Timeout$/u.test(key)) {
      return secondsToDuration(durationToSeconds(v));
    }
    if (typeof v !== 'object' || v === null) return v;
    const o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    if (key.endsWith('Ref') && typeof o.apiVersion === 'string' && o.kind !== 'Node') {
      const group = o.apiVersion.split('/')[0] ?? '';
      const version = group === 'infrastructure.cluster.x-k8s.io' ? 'v1beta1' : 'v1beta2';
      return { apiVersion: `${group}/${version}`, kind: o.kind, namespace: ns, name: o.name };
    }
    return o;
  };
  return walk(built, '') as T;
}
