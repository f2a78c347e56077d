import { z } from 'zod';
import type { MessageKey } from '../i18n/messages';
import type { RuleId } from '../rules/issue';
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
  /** A reference into the document (an OpenAPI v3 document's `#/components/schemas/…`). */
  readonly $ref?: string;
}

/** How {@link fieldTreeOf} reads a schema's loose objects. */
export interface FieldTreeOptions {
  /**
   * Zod's rendering: an object with properties and an empty `additionalProperties` (a
   * `looseObject`, loose so that what is read survives a round trip) is judged by its properties,
   * as the provider's own structural CRD would; `x-kubernetes-preserve-unknown-fields` is ignored.
   */
  looseIsClosed?: boolean;
  /**
   * A served CRD's schema: an object that keeps unknown fields (`x-kubernetes-preserve-unknown-
   * fields`, or an empty `additionalProperties`) but declares properties is judged by what it
   * declares: a field no schema declares is a typo nothing reads, kept or pruned alike. One that
   * declares none is free-form (open).
   */
  declared?: boolean;
  /** Resolves a `$ref`; an unresolved one is open (nothing to judge by). */
  resolve?: (ref: string) => JsonSchemaLike | undefined;
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
 * A JSON Schema's fields as a {@link FieldTree}, as `options` says to read its loose objects
 * ({@link FieldTreeOptions}); by default as a real API server prunes: a schema that keeps unknown
 * fields is open. A schema without properties whose `additionalProperties` is given is a map.
 */
export function fieldTreeOf(
  schema: JsonSchemaLike,
  options: FieldTreeOptions = {},
  seen: ReadonlySet<string> = new Set(),
): FieldTree {
  if (schema.$ref !== undefined) {
    const target = seen.has(schema.$ref) ? undefined : options.resolve?.(schema.$ref);
    return target ? fieldTreeOf(target, options, new Set([...seen, schema.$ref])) : { open: true };
  }
  const { looseIsClosed = false, declared = false } = options;
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  const declares = schema.properties !== undefined && !isEmpty(schema.properties);
  const extra = schema.additionalProperties;
  const keepsUnknown =
    schema['x-kubernetes-preserve-unknown-fields'] === true ||
    ((extra === true || (typeof extra === 'object' && isEmpty(extra))) &&
      schema.properties !== undefined);
  let tree: FieldTree = {};
  if (declared && keepsUnknown && !declares) {
    tree = { open: true };
  } else if (
    schema['x-kubernetes-preserve-unknown-fields'] === true &&
    !looseIsClosed &&
    !declared
  ) {
    tree = { open: true };
  } else if (schema.properties) {
    const properties: Record<string, FieldTree> = {};
    for (const [k, v] of Object.entries(schema.properties)) {
      properties[k] = fieldTreeOf(v, options, seen);
    }
    tree = keepsUnknown && !looseIsClosed && !declared ? { open: true } : { properties };
  } else if (extra !== undefined && extra !== false) {
    tree = { values: extra === true ? { open: true } : fieldTreeOf(extra, options, seen) };
  } else if (schema.items) {
    tree = { items: fieldTreeOf(schema.items, options, seen) };
  }
  for (const b of branches) tree = merge(tree, fieldTreeOf(b, options, seen));
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
 * A field a request must not set because something else sets it (the plan: `PLAN_OWNED_FIELDS`),
 * refused by `knownFieldsOnly` under its own rule and message.
 */
export interface OwnedField {
  /** The field's path within the part. */
  readonly path: readonly string[];
  readonly rule: RuleId;
  readonly messageKey: MessageKey;
}

/**
 * `schema` (loose, as the kind schemas are) refusing every field `tree` does not know, at any
 * depth (R-REQUEST), each at its path: `additionNic.0.gatway` of an IP pool entry is refused as
 * `ipPool.entries.0.additionNic.0.gatway`. A field of `owned` (the plan sets it:
 * `PLAN_OWNED_FIELDS`) is refused as such, under its own rule, whether or not `tree` knows it.
 * `kind` names what the part is written into.
 */
export function knownFieldsOnly<S extends z.ZodType>(
  schema: S,
  kind: string,
  tree: FieldTree,
  /** Where `schema` sits in the kind's part, for the message (`['additionNic']`). */
  within: readonly string[] = [],
  owned: readonly OwnedField[] = [],
) {
  return schema.superRefine(
    (value, ctx) => {
      const ownedHere: string[] = [];
      for (const f of owned) {
        if (!hasPath(value, f.path)) continue;
        const field = f.path.join('.');
        ownedHere.push(field);
        refuse(ctx, f.rule, f.messageKey, { field, kind }, [...f.path]);
      }
      for (const path of unknownFieldPaths(tree, value)) {
        if (ownedHere.includes(path.join('.'))) continue;
        const field = [...within, ...path].join('.');
        refuse(ctx, 'R-REQUEST', 'request.unknownField', { field, kind }, path);
      }
    },
    // Also while another field is wrong, so that the form names every problem at once.
    { when: () => true },
  );
}

/** Whether `value` has the own property at `path` (keys read as data, as everywhere here). */
function hasPath(value: unknown, path: readonly string[]): boolean {
  let cur = value;
  for (const key of path) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur)) return false;
    if (!Object.hasOwn(cur, key)) return false;
    cur = (cur as Record<string, unknown>)[key];
  }
  return true;
}
