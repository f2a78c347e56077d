/**
 * A CustomResourceDefinition (apiextensions.k8s.io/v1, as JSON: a CRD manifest parsed) read into
 * the registration of a kind in several versions: names and scope, and per version `served`,
 * `storage`, `deprecated`, `deprecationWarning`, `schema.openAPIV3Schema`,
 * `additionalPrinterColumns`, `subresources` (status, scale paths) and `selectableFields`. The
 * conversion, which a CRD names as a webhook, is given as a function.
 */
import { isObject, type JsonObject } from './json';
import type {
  ConversionCallback,
  KindVersion,
  MultiVersionKindRegistration,
  PrinterColumn,
} from './types';

const COLUMN_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'date']);

/** Reads a CRD; throws an Error naming the field of the first thing it cannot take. */
export function kindFromCrd(
  crd: unknown,
  convert?: ConversionCallback,
): MultiVersionKindRegistration {
  const name = isObject(crd) && isObject(crd.metadata) ? String(crd.metadata.name) : '?';
  const fail = (field: string, why: string) =>
    new Error(`CustomResourceDefinition ${name}: ${field}: ${why}`);
  const str = (o: JsonObject, key: string, field: string): string => {
    const v = o[key];
    if (typeof v !== 'string' || v === '') throw fail(`${field}.${key}`, 'Required value');
    return v;
  };
  const optStr = (o: JsonObject, key: string, field: string): string | undefined => {
    const v = o[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw fail(`${field}.${key}`, 'must be a string');
    return v;
  };
  const strList = (o: JsonObject, key: string, field: string): string[] | undefined => {
    const v = o[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
      throw fail(`${field}.${key}`, 'must be a list of strings');
    return v as string[];
  };
  const obj = (v: unknown, field: string): JsonObject => {
    if (!isObject(v)) throw fail(field, 'Required value');
    return v;
  };

  if (!isObject(crd) || crd.kind !== 'CustomResourceDefinition')
    throw fail('kind', 'must be CustomResourceDefinition');
  const spec = obj(crd.spec, 'spec');
  const names = obj(spec.names, 'spec.names');
  const scope = spec.scope;
  if (scope !== 'Namespaced' && scope !== 'Cluster')
    throw fail('spec.scope', 'Unsupported value: supported values: "Cluster", "Namespaced"');
  if (!Array.isArray(spec.versions)) throw fail('spec.versions', 'Required value');
  const versions = spec.versions.map((raw, i): KindVersion => {
    const field = `spec.versions[${i}]`;
    const v = obj(raw, field);
    const out: KindVersion = {
      name: str(v, 'name', field),
      served: v.served === true,
      storage: v.storage === true,
    };
    if (v.deprecated === true) out.deprecated = true;
    const warning = optStr(v, 'deprecationWarning', field);
    if (warning !== undefined) out.deprecationWarning = warning;
    if (v.schema !== undefined) {
      const schema = obj(v.schema, `${field}.schema`);
      if (schema.openAPIV3Schema !== undefined)
        out.openAPIV3Schema = obj(schema.openAPIV3Schema, `${field}.schema.openAPIV3Schema`);
    }
    if (v.additionalPrinterColumns !== undefined) {
      if (!Array.isArray(v.additionalPrinterColumns))
        throw fail(`${field}.additionalPrinterColumns`, 'must be a list');
      out.printerColumns = v.additionalPrinterColumns.map((c, j): PrinterColumn => {
        const cf = `${field}.additionalPrinterColumns[${j}]`;
        const col = obj(c, cf);
        const type = str(col, 'type', cf);
        if (!COLUMN_TYPES.has(type))
          throw fail(
            `${cf}.type`,
            'Unsupported value: supported values: "boolean", "date", "integer", "number", "string"',
          );
        const pc: PrinterColumn = {
          name: str(col, 'name', cf),
          type: type as PrinterColumn['type'],
          jsonPath: str(col, 'jsonPath', cf),
        };
        const description = optStr(col, 'description', cf);
        if (description !== undefined) pc.description = description;
        const format = optStr(col, 'format', cf);
        if (format !== undefined) pc.format = format;
        if (typeof col.priority === 'number') pc.priority = col.priority;
        return pc;
      });
    }
    if (v.subresources !== undefined) {
      const subs = obj(v.subresources, `${field}.subresources`);
      const status = subs.status !== undefined;
      const scaleRaw = subs.scale;
      out.subresources = { status, scale: scaleRaw !== undefined };
      if (scaleRaw !== undefined) {
        const sf = `${field}.subresources.scale`;
        const scale = obj(scaleRaw, sf);
        const label = optStr(scale, 'labelSelectorPath', sf);
        out.scale = {
          specReplicasPath: str(scale, 'specReplicasPath', sf),
          statusReplicasPath: str(scale, 'statusReplicasPath', sf),
          ...(label !== undefined ? { labelSelectorPath: label } : {}),
        };
      }
    }
    if (v.selectableFields !== undefined) {
      if (!Array.isArray(v.selectableFields))
        throw fail(`${field}.selectableFields`, 'must be a list');
      out.selectableFields = v.selectableFields.map((f, j) =>
        str(
          obj(f, `${field}.selectableFields[${j}]`),
          'jsonPath',
          `${field}.selectableFields[${j}]`,
        ),
      );
    }
    return out;
  });
  const reg: MultiVersionKindRegistration = {
    group: str(spec, 'group', 'spec'),
    kind: str(names, 'kind', 'spec.names'),
    plural: str(names, 'plural', 'spec.names'),
    scope: scope,
    versions,
  };
  const singular = optStr(names, 'singular', 'spec.names');
  if (singular !== undefined) reg.singular = singular;
  const listKind = optStr(names, 'listKind', 'spec.names');
  if (listKind !== undefined) reg.listKind = listKind;
  const shortNames = strList(names, 'shortNames', 'spec.names');
  if (shortNames) reg.shortNames = shortNames;
  const categories = strList(names, 'categories', 'spec.names');
  if (categories) reg.categories = categories;
  if (convert) reg.convert = convert;
  return reg;
}
