import { z } from 'zod';
import { refuse } from './fields';

/**
 * The fields an object may hold, at every level (issue 11): what a structural CRD lets an API
 * server keep. A field outside it is pruned without a word by a real API server, so a request
 * that writes one would preview what Apply does not write: it is refused instead (R-REQUEST),
 * naming its path. Trees are derived, never hand-kept: from the domain's zod shapes for the DCS
 * kinds ({@link fieldTreeOfZod}) and from upstream's CRD for KubeadmConfigSpec (generated,
 * `../generated/kubeadm-config-spec-fields.ts`, by {@link fieldTreeOf}).
 */
export interface FieldTree {
  /** An object: only these fields. */
  readonly properties?: Readonly<Record<string, FieldTree>>;
  /** A map (`additionalProperties`): any key is data, each value as this says. */
  readonly values?: FieldTree;
  /** A list: each item as this says. */
  readonly items?: FieldTree;
  /** `x-kubernetes-preserve-unknown-fields`: whatever is below is kept as sent. */
  readonly open?: true;
}

/** The part of a JSON Schema (OpenAPI v3 of a CRD, or zod's rendering) a {@link FieldTree} reads. */
export interface JsonSchemaLike {
  readonly properties?: Readonly<Record<string, JsonSchemaLike>>;
  readonly additionalProperties?: JsonSchemaLike | boolean;
  readonly items?: JsonSchemaLike;
  readonly anyOf?: readonly JsonSchemaLike[];
  readonly oneOf?: readonly JsonSchemaLike[];
  readonly allOf?: readonly JsonSchemaLike[];
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
}

const isEmpty = (o: object): boolean => Object.keys(o).length === 0;

/** The union of two trees (branches of a union: a field of either is known). */
function merge(a: FieldTree, b: FieldTree): FieldTree {
  if (a.open || b.open) return { open: true };
  const out: {
    properties?: Record<string, FieldTree>;
    values?: FieldTree;
    items?: FieldTree;
  } = {};
  if (a.properties || b.properties) {
    const props: Record<string, FieldTree> = { ...a.properties };
    for (const [k, v] of Object.entries(b.properties ?? {})) {
      const mine = Object.hasOwn(props, k) ? props[k] : undefined;
      props[k] = mine ? merge(mine, v) : v;
    }
    out.properties = props;
  }
  if (a.values || b.values)
    out.values = a.values && b.values ? merge(a.values, b.values) : (a.values ?? b.values);
  if (a.items || b.items)
    out.items = a.items && b.items ? merge(a.items, b.items) : (a.items ?? b.items);
  return out;
}

/**
 * A JSON Schema's fields as a {@link FieldTree}. `looseIsClosed`: an object that has properties
 * and an empty `additionalProperties` (zod's `looseObject`, loose so that what is read survives a
 * round trip) is judged by its properties, as the provider's own structural CRD would; a schema
 * without properties whose `additionalProperties` is given is a map.
 */
export function fieldTreeOf(schema: JsonSchemaLike, { looseIsClosed = false } = {}): FieldTree {
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  let tree: FieldTree = {};
  if (schema['x-kubernetes-preserve-unknown-fields'] === true && !looseIsClosed) {
    tree = { open: true };
  } else if (schema.properties) {
    const properties: Record<string, FieldTree> = {};
    for (const [k, v] of Object.entries(schema.properties)) {
      properties[k] = fieldTreeOf(v, { looseIsClosed });
    }
    const extra = schema.additionalProperties;
    const loose = extra === true || (typeof extra === 'object' && isEmpty(extra));
    tree = loose && !looseIsClosed ? { open: true } : { properties };
  } else if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    const extra = schema.additionalProperties;
    tree = { values: extra === true ? { open: true } : fieldTreeOf(extra, { looseIsClosed }) };
  } else if (schema.items) {
    tree = { items: fieldTreeOf(schema.items, { looseIsClosed }) };
  }
  for (const b of branches) tree = merge(tree, fieldTreeOf(b, { looseIsClosed }));
  return tree;
}

/** The fields of a domain zod schema (its loose objects judged by their shapes: `fieldTreeOf`). */
export function fieldTreeOfZod(schema: z.ZodType): FieldTree {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaLike;
  return fieldTreeOf(json, { looseIsClosed: true });
}

/**
 * The paths in `value` of every field `tree` does not know, outermost first (a field that is
 * unknown is not looked into). Keys are read as data: `__proto__`, `constructor` and `prototype`
 * are fields like any other (own properties only, on both sides).
 */
export function unknownFieldPaths(
  tree: FieldTree,
  value: unknown,
  path: readonly (string | number)[] = [],
): (string | number)[][] {
  if (tree.open || typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) {
    const items = tree.items;
    if (!items) return [];
    return value.flatMap((v, i) => unknownFieldPaths(items, v, [...path, i]));
  }
  const out: (string | number)[][] = [];
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    if (tree.properties) {
      const known = Object.hasOwn(tree.properties, key) ? tree.properties[key] : undefined;
      if (known) out.push(...unknownFieldPaths(known, child, [...path, key]));
      else out.push([...path, key]);
    } else if (tree.values) {
      out.push(...unknownFieldPaths(tree.values, child, [...path, key]));
    }
  }
  return out;
}

/**
 * `schema` (loose, as the kind schemas are) refusing every field `tree` does not know, at any
 * depth (R-REQUEST), each at its path: `additionNic.0.gatway` of an IP pool entry is refused as
 * `ipPool.entries.0.additionNic.0.gatway`. `kind` names what the part is written into.
 */
export function knownFieldsOnly<S extends z.ZodType>(
  schema: S,
  kind: string,
  tree: FieldTree,
  /** Where `schema` sits in the kind's part, for the message (`['additionNic']`). */
  within: readonly string[] = [],
) {
  return schema.superRefine(
    (value, ctx) => {
      for (const path of unknownFieldPaths(tree, value)) {
        const field = [...within, ...path].join('.');
        refuse(ctx, 'R-REQUEST', 'request.unknownField', { field, kind }, path);
      }
    },
    // Also while another field is wrong, so that the form names every problem at once.
    { when: () => true },
  );
}
