import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '@dcs/apiserver';
import { kindRegistrations } from '../embedded';
import { CAPI_RELEASES, type CapiRelease } from './releases';

/**
 * KCP remediation reads spec.remediationStrategy (v1beta1; spec.remediation in v1beta2) and
 * writes status.lastRemediation: every release's served KubeadmControlPlane schema has them, with
 * upstream's field names in each version.
 */

interface Served {
  name: string;
  schema: JSONSchemaProps | undefined;
}

function servedKcp(release: CapiRelease): Served[] {
  const reg = kindRegistrations(release).find((r) => r.kind === 'KubeadmControlPlane');
  if (!reg) throw new Error(`${release}: no KubeadmControlPlane`);
  if ('versions' in reg) {
    return reg.versions
      .filter((v) => v.served)
      .map((v) => ({ name: v.name, schema: v.openAPIV3Schema }));
  }
  return [{ name: reg.version, schema: reg.openAPIV3Schema }];
}

const fields = (schema: JSONSchemaProps | undefined, ...path: string[]): string[] => {
  let node: JSONSchemaProps | undefined = schema;
  for (const p of path) node = node?.properties?.[p];
  return Object.keys(node?.properties ?? {}).sort();
};

const EXPECTED: Record<string, { spec: [string, string[]]; last: string[] }> = {
  v1beta1: {
    spec: ['remediationStrategy', ['maxRetry', 'minHealthyPeriod', 'retryPeriod']],
    last: ['machine', 'retryCount', 'timestamp'],
  },
  v1beta2: {
    spec: ['remediation', ['maxRetry', 'minHealthyPeriodSeconds', 'retryPeriodSeconds']],
    last: ['machine', 'retryCount', 'time'],
  },
};

describe.each(CAPI_RELEASES)('KubeadmControlPlane as %s serves it', (release) => {
  it('serves the versions the release does', () => {
    const names = servedKcp(release).map((v) => v.name);
    expect(names).toEqual(
      release === 'v1.10'
        ? ['v1beta1']
        : release === 'v1.14'
          ? ['v1beta2', 'v1beta1']
          : ['v1beta2'],
    );
  });

  it('has the remediation strategy and lastRemediation under upstream’s names', () => {
    for (const { name, schema } of servedKcp(release)) {
      const want = EXPECTED[name];
      if (!want) throw new Error(`unexpected version ${name}`);
      const [field, keys] = want.spec;
      expect(fields(schema, 'spec', field), `${name} spec.${field}`).toEqual(keys);
      expect(fields(schema, 'status', 'lastRemediation'), `${name} lastRemediation`).toEqual(
        want.last,
      );
    }
  });
});
