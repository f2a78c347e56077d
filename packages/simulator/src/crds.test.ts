import { describe, expect, it } from 'vitest';
import { crdKinds, crdOf, dcsCrds, openApiSchemaOf } from './crds';

function walk(
  node: unknown,
  visit: (n: Record<string, unknown>, path: string) => void,
  path = '',
): void {
  if (typeof node !== 'object' || node === null) return;
  if (!Array.isArray(node)) visit(node as Record<string, unknown>, path);
  for (const [k, v] of Object.entries(node)) walk(v, visit, `${path}/${k}`);
}

describe('CRDs generated from the domain schemas', () => {
  it('covers the Cluster API and DCS kinds, and prints the four DCS ones for sim:crds', () => {
    expect(crdKinds).toContain('MachineDeployment');
    expect(crdKinds).toContain('KubeadmControlPlane');
    expect(
      dcsCrds()
        .map((c) => c.spec.names.kind)
        .sort(),
    ).toEqual(['DCSCluster', 'DCSIpHostnamePool', 'DCSMachine', 'DCSMachineTemplate']);
  });

  it.each(crdKinds)(
    '%s has a structural schema: no anyOf, no empty additionalProperties',
    (kind) => {
      walk(openApiSchemaOf(kind), (n, path) => {
        expect(n.anyOf, path).toBeUndefined();
        expect(
          n.additionalProperties === undefined ||
            Object.keys(n.additionalProperties as object).length > 0,
          path,
        ).toBe(true);
      });
    },
  );

  it('R-MD-2: maxSurge and maxUnavailable are int-or-string on the wire', () => {
    const schema = openApiSchemaOf('MachineDeployment') as {
      properties: {
        spec: {
          properties: {
            strategy: { properties: { rollingUpdate: { properties: Record<string, unknown> } } };
          };
        };
      };
    };
    const rolling = schema.properties.spec.properties.strategy.properties.rollingUpdate.properties;
    expect(rolling.maxSurge).toEqual({ 'x-kubernetes-int-or-string': true });
    expect(rolling.maxUnavailable).toEqual({ 'x-kubernetes-int-or-string': true });
  });

  it('serves MachineDeployment with upstream schema and the scale subresource', () => {
    const crd = crdOf('MachineDeployment');
    const version = crd.spec.versions[0];
    expect(version?.subresources).toEqual({
      status: {},
      scale: {
        specReplicasPath: '.spec.replicas',
        statusReplicasPath: '.status.replicas',
        labelSelectorPath: '.status.selector',
      },
    });
    // Cluster API's own schema (issue 13): exact, no unknown field kept below spec.
    const spec = (
      version?.schema.openAPIV3Schema.properties as Record<string, Record<string, unknown>>
    ).spec;
    expect(spec?.['x-kubernetes-preserve-unknown-fields']).toBeUndefined();
    expect(spec?.required).toEqual(['clusterName', 'selector', 'template']);
    expect(version?.additionalPrinterColumns.map((c) => c.name)).toContain('Ready');
  });
});
