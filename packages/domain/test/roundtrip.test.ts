import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { IpPoolEntrySchema, kindSchemas, safeParseObject, type ParsedKind } from '../src';

const dir = join(import.meta.dirname, 'fixtures', 'reference');
const yamlFixtures = readdirSync(dir).filter((f) => f.endsWith('.yaml'));

function kindOf(doc: unknown): ParsedKind {
  const kind = (doc as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || !(kind in kindSchemas))
    throw new Error(`unexpected kind ${String(kind)}`);
  return kind as ParsedKind;
}

describe('reference examples round-trip through the schemas', () => {
  it('has every example of both documents', () => {
    expect(yamlFixtures.filter((f) => f.startsWith('000-'))).toHaveLength(4);
    expect(yamlFixtures.filter((f) => f.startsWith('001-'))).toHaveLength(5);
  });

  it.each(yamlFixtures)('%s parses and writes back unchanged', (file) => {
    const doc: unknown = parse(readFileSync(join(dir, file), 'utf8'));
    const result = safeParseObject(kindOf(doc), doc);
    if (!result.success) throw new Error(result.error.message);
    expect(JSON.parse(JSON.stringify(result.data))).toEqual(doc);
  });

  it.each(yamlFixtures)('%s keeps fields the schema does not know', (file) => {
    const doc = parse(readFileSync(join(dir, file), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    const extended = {
      ...doc,
      metadata: { ...doc.metadata, futureField: { nested: [1, 'two'] } },
      spec: { ...doc.spec, vendorExtension: 'kept' },
    };
    const result = safeParseObject(kindOf(doc), extended);
    expect(result.success && JSON.parse(JSON.stringify(result.data))).toEqual(extended);
  });

  it('the merge-patch body of the scale-up example holds five complete pool entries', () => {
    const body = JSON.parse(
      readFileSync(join(dir, '001-ippool-extend-merge-patch.json'), 'utf8'),
    ) as {
      spec: { pool: unknown[] };
    };
    const entries = body.spec.pool.map((e) => IpPoolEntrySchema.parse(e));
    expect(entries).toEqual(body.spec.pool);
    expect(entries.map((e) => e.ip)).toEqual([
      '10.0.1.11',
      '10.0.1.12',
      '10.0.1.13',
      '10.0.1.14',
      '10.0.1.15',
    ]);
  });

  it('rejects an object that lacks a required field', () => {
    const doc = parse(readFileSync(join(dir, '001-machine-template.yaml'), 'utf8')) as {
      spec: { template: { spec: Record<string, unknown> } };
    };
    delete doc.spec.template.spec.vmTemplateName;
    const result = safeParseObject('DCSMachineTemplate', doc);
    expect(result.success).toBe(false);
    if (!result.success)
      expect(result.error.issues[0]?.path).toEqual(['spec', 'template', 'spec', 'vmTemplateName']);
  });
});
