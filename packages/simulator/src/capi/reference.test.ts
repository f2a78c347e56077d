import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '@dcs/apiserver';
import { KUBEADM_CONFIG_SPEC_TREE } from '@dcs/domain';
import { kindRegistrations } from '../embedded';
import { capiReferenceSchemas } from '../generated/capi-schemas';
import {
  readReferenceTexts,
  referenceDir,
  referenceSchemasFromTexts,
  kubeadmConfigSpecTree,
  referenceSource,
  renderKubeadmFieldsModule,
  renderModule,
  stripSchema,
} from './reference';

/**
 * Issue 13 item 1: the embedded cluster validates the Cluster API kinds exactly as upstream's
 * CRDs do. The reference CRDs (`shared/reference/capi-crds/`) are read when present; on a machine
 * without them (CI) the committed generated module is checked alone, and the output says so.
 */

const dir = referenceDir();
const texts = readReferenceTexts(dir);
if (!texts) {
  process.stdout.write(
    `capi reference: ${dir} is absent: checking the committed src/generated/capi-schemas.ts alone\n`,
  );
}

/** The reference kinds' raw served schemas, with their descriptions (or the committed ones). */
const rawReference: { kind: string; schema: unknown }[] = texts
  ? texts.map((t) => {
      const crd = parse(t) as {
        spec: {
          names: { kind: string };
          versions: { served: boolean; storage: boolean; schema: { openAPIV3Schema: unknown } }[];
        };
      };
      const v = crd.spec.versions.find((x) => x.served && x.storage);
      return { kind: crd.spec.names.kind, schema: v?.schema.openAPIV3Schema };
    })
  : capiReferenceSchemas.map((s) => ({ kind: s.kind, schema: s.schema }));

const NOT_CONSTRAINTS = new Set(['description', 'properties', 'items', 'additionalProperties']);

/**
 * Every constraint at every path of a schema: `path keyword = value`, one line each, with the
 * paths of properties, items and additionalProperties spelled out, so that two schemas are
 * compared keyword by keyword and a difference names its place.
 */
function constraints(schema: unknown, path = ''): string[] {
  if (typeof schema !== 'object' || schema === null) return [`${path} <not a schema>`];
  const s = schema as Record<string, unknown>;
  const out: string[] = [`${path} <schema>`];
  for (const [k, v] of Object.entries(s)) {
    if (NOT_CONSTRAINTS.has(k)) continue;
    out.push(`${path} ${k} = ${JSON.stringify(v)}`);
  }
  for (const [name, sub] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) {
    out.push(...constraints(sub, `${path}.${name}`));
  }
  if (s.items !== undefined) out.push(...constraints(s.items, `${path}[]`));
  if (typeof s.additionalProperties === 'boolean') {
    out.push(`${path} additionalProperties = ${String(s.additionalProperties)}`);
  } else if (s.additionalProperties !== undefined) {
    out.push(...constraints(s.additionalProperties, `${path}{}`));
  }
  return out.sort();
}

function difference(a: string[], b: string[]): { missing: string[]; extra: string[] } {
  const sa = new Set(a);
  const sb = new Set(b);
  return { missing: a.filter((x) => !sb.has(x)), extra: b.filter((x) => !sa.has(x)) };
}

const served = new Map(kindRegistrations('v1.10').map((r) => [r.kind, r.openAPIV3Schema]));

describe('the embedded CRDs of the Cluster API kinds are upstream’s (issue 13 item 1)', () => {
  it('covers every kind of the reference CRDs', () => {
    expect(rawReference.map((r) => r.kind).sort()).toEqual([
      'Cluster',
      'KubeadmConfigTemplate',
      'KubeadmControlPlane',
      'Machine',
      'MachineDeployment',
      'MachineSet',
    ]);
  });

  it.each(rawReference)(
    '$kind: every bound, enum, pattern, required field, format and default at every path is the same',
    ({ kind, schema }) => {
      const expected = constraints(schema);
      const actual = constraints(served.get(kind));
      expect(expected.length).toBeGreaterThan(100);
      expect(difference(expected, actual)).toEqual({ missing: [], extra: [] });
    },
  );

  it('KubeadmConfig (no reference CRD) serves the KubeadmConfigSpec of KubeadmConfigTemplate', () => {
    const template = rawReference.find((r) => r.kind === 'KubeadmConfigTemplate')?.schema as
      JSONSchemaProps | undefined;
    const spec = template?.properties?.spec?.properties?.template?.properties?.spec;
    expect(
      difference(constraints(spec), constraints(served.get('KubeadmConfig')?.properties?.spec)),
    ).toEqual({ missing: [], extra: [] });
  });

  it('the reference carries no CEL rules (x-kubernetes-validations): none to evaluate', () => {
    for (const { schema } of rawReference) {
      expect(JSON.stringify(schema)).not.toContain('x-kubernetes-validations');
    }
  });
});

describe('src/generated/capi-schemas.ts', () => {
  it('is what the generator makes of the reference CRDs (when the reference is present)', () => {
    const committed = readFileSync(
      join(import.meta.dirname, '..', 'generated', 'capi-schemas.ts'),
      'utf8',
    );
    if (texts) {
      expect(committed, 'stale: run `pnpm --filter @dcs/simulator gen:capi-schemas`').toBe(
        renderModule(referenceSchemasFromTexts(texts), referenceSource(dir)),
      );
    } else {
      expect(committed).toContain('Generated by `pnpm --filter @dcs/simulator gen:capi-schemas`');
    }
  });

  it('domain’s KubeadmConfigSpec field tree (issue 11) is what the generator makes of the reference', () => {
    const committed = readFileSync(
      join(
        import.meta.dirname,
        '..',
        '..',
        '..',
        'domain',
        'src',
        'generated',
        'kubeadm-config-spec-fields.ts',
      ),
      'utf8',
    );
    if (texts) {
      expect(committed, 'stale: run `pnpm --filter @dcs/simulator gen:capi-schemas`').toBe(
        renderKubeadmFieldsModule(referenceSchemasFromTexts(texts), referenceSource(dir)),
      );
    }
    // Without the reference files, against the committed reference schemas.
    expect(KUBEADM_CONFIG_SPEC_TREE).toEqual(kubeadmConfigSpecTree(capiReferenceSchemas));
  });

  it('holds no description text and only keywords the embedded validator implements', () => {
    for (const s of capiReferenceSchemas) {
      expect(stripSchema(s.schema, s.kind)).toEqual(s.schema);
    }
  });

  it('refuses a keyword the embedded validator would ignore; keeps CEL rules, which it evaluates', () => {
    expect(() =>
      stripSchema({
        type: 'object',
        properties: { a: { type: 'string', patternProperties: { x: { type: 'string' } } } },
      }),
    ).toThrow(/\/properties\/a: schema keyword patternProperties is not implemented/);
    const rules = [{ rule: 'self != ""', message: 'a must not be empty' }];
    expect(
      stripSchema({
        type: 'object',
        properties: { a: { type: 'string', 'x-kubernetes-validations': rules } },
      }),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'string', 'x-kubernetes-validations': rules } },
    });
    // A property named like a keyword is data and stays.
    expect(
      stripSchema({ type: 'object', properties: { description: { type: 'string' } } }),
    ).toEqual({ type: 'object', properties: { description: { type: 'string' } } });
  });
});
