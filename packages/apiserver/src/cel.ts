/**
 * `x-kubernetes-validations`: the CEL rules of a CRD schema, evaluated as apiextensions-apiserver
 * evaluates them (`pkg/apiserver/schema/cel/validation.go`): every rule of every schema node
 * whose value is present and not null, `self` bound to that value, `oldSelf` to the correlated
 * old value on an update (a rule that names `oldSelf` — a transition rule — is skipped where
 * there is none), the failure reported at the node's path (or the rule's `fieldPath`) as
 * `Invalid value: "<schema type>": <message>`, with `reason` choosing the error type. Rules are
 * compiled once per schema object (a WeakMap), never per request, and each evaluation is bounded
 * by a cost budget (see `CostTracker`).
 *
 * Evaluation is @bufbuild/cel's (a CEL-spec conformant interpreter; `matches` uses RE2 syntax, as
 * cel-go does). Values are handed to it as lazy lists and maps over the JSON object, typed by
 * the schema (integer → int, number → double), that charge the cost of every element they give.
 */
import { celEnv, celMethod, isCelError, isCelList, listType, parse, plan } from '@bufbuild/cel';
import type { CelFunc, CelValue } from '@bufbuild/cel';
import { CelScalar } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { deepEqual, isObject, own } from './json';
import { fieldError, type FieldError } from './status';
import type { JSONSchemaProps, ValidationRule } from './types';

export type { ValidationRule } from './types';

/** k8s.io/apiserver/pkg/apis/cel: the cost one expression may spend (`PerCallLimit`). */
export const PER_CALL_LIMIT = 1_000_000;
/** ... and what all the rules of one object may spend together (`RuntimeCELCostBudget`). */
export const RUNTIME_COST_BUDGET = 10_000_000;
/** `MaxEvaluatedMessageExpressionSizeBytes`. */
const MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024;

// ---------------------------------------------------------------------------------------------
// cost

class CostExceeded extends Error {}

/**
 * Counts the work of one evaluation: every element a list or map hands out (each step of a
 * comprehension, each field read, each element compared by `==`) costs 1, as cel-go's tracker
 * charges each step; the string functions charge their input's length. Past the limit the next
 * charge throws, which ends the evaluation.
 */
class CostTracker {
  cost = 0;
  exceeded = false;
  constructor(private readonly limit: number) {}
  charge(n = 1): void {
    this.cost += n;
    if (this.cost > this.limit) {
      this.exceeded = true;
      throw new CostExceeded('operation cancelled: actual cost limit exceeded');
    }
  }
}

let tracker: CostTracker | undefined;
function charge(n = 1): void {
  tracker?.charge(n);
}

// ---------------------------------------------------------------------------------------------
// values: lazy views of the JSON object, typed by the schema

// @bufbuild/cel recognizes its lists and maps by these registered symbols (`isCelList`,
// `isCelMap`); the views below carry them so that it reads them as its own.
const LIST_BRAND = Symbol.for('@bufbuild/cel/list');
const MAP_BRAND = Symbol.for('@bufbuild/cel/map');

/** Property names the object exposes to CEL at a resource root (`model.WithTypeAndObjectMeta`). */
const ROOT_META: JSONSchemaProps = {
  type: 'object',
  properties: { name: { type: 'string' }, generateName: { type: 'string' } },
};

/** The views carry the brands; the library's types name them by a symbol it does not export. */
function asCel(view: ListView | MapView): CelValue {
  return view as unknown as CelValue;
}

function toCel(value: unknown, schema: JSONSchemaProps | undefined, root = false): CelValue {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return asCel(new ListView(value, schema?.items));
  if (isObject(value))
    return asCel(new MapView(value, schema, root || !!schema?.['x-kubernetes-embedded-resource']));
  if (typeof value === 'number') {
    const integral = Number.isInteger(value);
    if (schema?.type === 'number') return value;
    if (schema?.type === 'integer' || integral) return integral ? BigInt(value) : value;
    return value;
  }
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  return null;
}

class ListView {
  readonly [LIST_BRAND] = {};
  constructor(
    private readonly items: readonly unknown[],
    private readonly schema: JSONSchemaProps | undefined,
  ) {}
  get size(): number {
    return this.items.length;
  }
  get(index: number): CelValue | undefined {
    if (index < 0 || index >= this.items.length) return undefined;
    charge();
    return toCel(this.items[index], this.schema);
  }
  *values(): IterableIterator<CelValue> {
    for (const v of this.items) {
      charge();
      yield toCel(v, this.schema);
    }
  }
  [Symbol.iterator](): IterableIterator<CelValue> {
    return this.values();
  }
}

type MapKey = bigint | string | boolean | { value: bigint } | number;

/** An object: its schema's properties (others are pruned before), or additionalProperties. */
class MapView {
  readonly [MAP_BRAND] = {};
  private readonly keyList: string[];
  constructor(
    private readonly obj: Readonly<Record<string, unknown>>,
    private readonly schema: JSONSchemaProps | undefined,
    private readonly resourceRoot: boolean,
  ) {
    const props = schema?.properties;
    this.keyList = Object.keys(obj).filter((k) => {
      if (resourceRoot && (k === 'apiVersion' || k === 'kind' || k === 'metadata')) return true;
      if (props) return own(props, k) !== undefined;
      return true;
    });
  }
  private sub(key: string): JSONSchemaProps | undefined {
    if (this.resourceRoot) {
      if (key === 'metadata') return ROOT_META;
      if (key === 'apiVersion' || key === 'kind') return { type: 'string' };
    }
    const s = this.schema;
    if (!s) return undefined;
    const p = own(s.properties, key);
    if (p) return p;
    return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  }
  private value(key: string): CelValue {
    const v = own(this.obj, key);
    if (key === 'metadata' && this.resourceRoot && isObject(v)) {
      const m: Record<string, unknown> = {};
      for (const k of ['name', 'generateName']) if (own(v, k) !== undefined) m[k] = own(v, k);
      return asCel(new MapView(m, ROOT_META, false));
    }
    return toCel(v, this.sub(key));
  }
  get size(): number {
    return this.keyList.length;
  }
  has(key: MapKey): boolean {
    charge();
    return typeof key === 'string' && this.keyList.includes(key) && own(this.obj, key) !== null;
  }
  get(key: MapKey): CelValue | undefined {
    charge();
    if (typeof key !== 'string' || !this.keyList.includes(key)) return undefined;
    return this.value(key);
  }
  *keys(): MapIterator<string> {
    for (const k of this.keyList) {
      charge();
      yield k;
    }
  }
  *values(): MapIterator<CelValue> {
    for (const k of this.keyList) {
      charge();
      yield this.value(k);
    }
  }
  *entries(): MapIterator<[string, CelValue]> {
    for (const k of this.keyList) {
      charge();
      yield [k, this.value(k)];
    }
  }
  [Symbol.iterator](): MapIterator<[string, CelValue]> {
    return this.entries();
  }
  forEach(cb: (value: CelValue, key: string, map: ReadonlyMap<string, CelValue>) => void): void {
    for (const [k, v] of this.entries()) cb(v, k, this);
  }
}

// ---------------------------------------------------------------------------------------------
// the environment: CEL's standard library, cel-go's strings extension and Kubernetes' lists
// library (k8s.io/apiserver/pkg/cel/library/lists.go), as the CRD environment declares them

function listOf(v: CelValue): CelValue[] {
  if (!isCelList(v)) return [];
  return Array.from(v);
}

function compareCel(a: CelValue, b: CelValue): number {
  if (
    (typeof a === 'bigint' || typeof a === 'number') &&
    (typeof b === 'bigint' || typeof b === 'number')
  )
    return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  throw new Error('no such overload');
}

const dynList = listType(CelScalar.DYN);

const KUBERNETES_LISTS: CelFunc[] = [
  celMethod('isSorted', dynList, [], CelScalar.BOOL, function () {
    const xs = listOf(this);
    for (let i = 1; i < xs.length; i++)
      if (compareCel(xs[i - 1] ?? null, xs[i] ?? null) > 0) return false;
    return true;
  }),
  celMethod('sum', dynList, [], CelScalar.DYN, function () {
    const xs = listOf(this);
    if (xs.length === 0) return 0n;
    let total: bigint | number = typeof xs[0] === 'number' ? 0 : 0n;
    for (const x of xs) {
      if (typeof total === 'bigint' && typeof x === 'bigint') total += x;
      else if (typeof total === 'number' && typeof x === 'number') total += x;
      else throw new Error('no such overload');
    }
    return total;
  }),
  celMethod('min', dynList, [], CelScalar.DYN, function () {
    const xs = listOf(this);
    if (xs.length === 0) throw new Error('min called on empty list');
    return xs.reduce((m, x) => (compareCel(x, m) < 0 ? x : m));
  }),
  celMethod('max', dynList, [], CelScalar.DYN, function () {
    const xs = listOf(this);
    if (xs.length === 0) throw new Error('max called on empty list');
    return xs.reduce((m, x) => (compareCel(x, m) > 0 ? x : m));
  }),
];

const ENV_FUNCS: CelFunc[] = [...strings, ...KUBERNETES_LISTS];

const env = celEnv({ funcs: ENV_FUNCS });

// ---------------------------------------------------------------------------------------------
// compilation, once per schema object

type Expr = ReturnType<typeof parse>['expr'];

type Program = (bindings: Record<string, unknown>) => unknown;

interface CompiledRule {
  rule: ValidationRule;
  program?: Program;
  message?: Program;
  usesOldSelf: boolean;
  /** AST nodes: the fixed cost of one evaluation. */
  nodes: number;
  messageNodes: number;
  /** The rule's fieldPath as a field path suffix (`.a.b`), validated against the schema. */
  fieldPath: string;
  error?: string;
}

/** Parallels the schema: the compiled rules of each node that has (or is above) any. */
export interface CelValidator {
  schema: JSONSchemaProps;
  rules: CompiledRule[];
  properties?: Map<string, CelValidator>;
  items?: CelValidator;
  additionalProperties?: CelValidator;
  allOf?: CelValidator[];
  resourceRoot: boolean;
}

function walkExpr(e: Expr | undefined, visit: (e: Expr) => void): void {
  if (!e) return;
  visit(e);
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr':
      walkExpr(k.value.operand, visit);
      break;
    case 'callExpr':
      walkExpr(k.value.target, visit);
      for (const a of k.value.args) walkExpr(a, visit);
      break;
    case 'listExpr':
      for (const a of k.value.elements) walkExpr(a, visit);
      break;
    case 'structExpr':
      for (const en of k.value.entries) {
        if (en.keyKind.case === 'mapKey') walkExpr(en.keyKind.value, visit);
        walkExpr(en.value, visit);
      }
      break;
    case 'comprehensionExpr':
      walkExpr(k.value.iterRange, visit);
      walkExpr(k.value.accuInit, visit);
      walkExpr(k.value.loopCondition, visit);
      walkExpr(k.value.loopStep, visit);
      walkExpr(k.value.result, visit);
      break;
    default:
      break;
  }
}

function compileExpression(source: string): { program: Program; oldSelf: boolean; nodes: number } {
  const parsed = parse(source);
  let oldSelf = false;
  let nodes = 0;
  walkExpr(parsed.expr, (e) => {
    nodes++;
    if (e.exprKind.case === 'identExpr' && e.exprKind.value.name === 'oldSelf') oldSelf = true;
  });
  const run = plan(env, parsed) as unknown as Program;
  return { program: run, oldSelf, nodes };
}

/**
 * A rule's `fieldPath` (`.spec.x`, `['a.b']`) checked against the schema as `ValidFieldPath`
 * checks it, rendered as the path suffix the error gets.
 */
function normalizeFieldPath(path: string, schema: JSONSchemaProps): string {
  let out = '';
  let s: JSONSchemaProps = schema;
  const re = /\.([^.[\]]+)|\['((?:[^'\\]|\\.)*)'\]/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < path.length) {
    re.lastIndex = at;
    m = re.exec(path);
    if (!m) throw new Error(`invalid field path: ${path}`);
    at = re.lastIndex;
    const name = m[1] ?? (m[2] ?? '').replace(/\\(.)/g, '$1');
    const prop = s.properties ? own(s.properties, name) : undefined;
    if (s.properties) {
      if (!prop) throw new Error(`fieldPath ${path} does not refer to a valid field`);
      s = prop;
      out += `.${name}`;
    } else if (typeof s.additionalProperties === 'object') {
      s = s.additionalProperties;
      out += `[${name}]`;
    } else throw new Error(`fieldPath ${path} does not refer to a valid field`);
  }
  return out;
}

function compileRule(rule: ValidationRule, schema: JSONSchemaProps): CompiledRule {
  const compiled: CompiledRule = {
    rule,
    usesOldSelf: false,
    nodes: 0,
    messageNodes: 0,
    fieldPath: '',
  };
  try {
    const r = compileExpression(rule.rule);
    compiled.program = r.program;
    compiled.usesOldSelf = r.oldSelf;
    compiled.nodes = r.nodes;
    if (rule.messageExpression) {
      const msg = compileExpression(rule.messageExpression);
      compiled.message = msg.program;
      compiled.messageNodes = msg.nodes;
    }
    if (rule.fieldPath) compiled.fieldPath = normalizeFieldPath(rule.fieldPath, schema);
  } catch (err) {
    compiled.error = err instanceof Error ? err.message : String(err);
  }
  return compiled;
}

const cache = new WeakMap<JSONSchemaProps, CelValidator | null>();

function build(schema: JSONSchemaProps, resourceRoot: boolean): CelValidator | undefined {
  const rules = (schema['x-kubernetes-validations'] ?? []).map((r) => compileRule(r, schema));
  const v: CelValidator = { schema, rules, resourceRoot };
  let any = rules.length > 0;
  if (schema.items) {
    const items = build(schema.items, !!schema.items['x-kubernetes-embedded-resource']);
    if (items) {
      v.items = items;
      any = true;
    }
  }
  for (const [k, sub] of Object.entries(schema.properties ?? {})) {
    if (resourceRoot && (k === 'metadata' || k === 'apiVersion' || k === 'kind')) continue;
    const p = build(sub, !!sub['x-kubernetes-embedded-resource']);
    if (p) {
      (v.properties ??= new Map()).set(k, p);
      any = true;
    }
  }
  if (typeof schema.additionalProperties === 'object') {
    const a = build(
      schema.additionalProperties,
      !!schema.additionalProperties['x-kubernetes-embedded-resource'],
    );
    if (a) {
      v.additionalProperties = a;
      any = true;
    }
  }
  for (const sub of schema.allOf ?? []) {
    // An allOf member's rules apply to the same value, typed by the node's own schema.
    const a = build(
      { ...schema, ...sub, properties: sub.properties, items: sub.items },
      resourceRoot,
    );
    if (a) {
      (v.allOf ??= []).push(a);
      any = true;
    }
  }
  return any ? v : undefined;
}

/** The compiled rules of a resource's schema (cached per schema object), or undefined if none. */
export function celValidator(schema: JSONSchemaProps | undefined): CelValidator | undefined {
  if (!schema) return undefined;
  const hit = cache.get(schema);
  if (hit !== undefined) return hit ?? undefined;
  const v = build(schema, true);
  cache.set(schema, v ?? null);
  return v;
}

/** Every rule of a schema that does not compile: `<path>: <rule>: <error>` (for tests, tools). */
export function celCompileErrors(schema: JSONSchemaProps): string[] {
  const out: string[] = [];
  const visit = (v: CelValidator | undefined, path: string): void => {
    if (!v) return;
    for (const r of v.rules)
      if (r.error) out.push(`${path || '<root>'}: ${r.rule.rule}: ${r.error}`);
    for (const [k, p] of v.properties ?? []) visit(p, path ? `${path}.${k}` : k);
    visit(v.items, `${path}[]`);
    visit(v.additionalProperties, `${path}[*]`);
    for (const a of v.allOf ?? []) visit(a, path);
  };
  visit(celValidator(schema), '');
  return out;
}

// ---------------------------------------------------------------------------------------------
// evaluation

export interface CelResult {
  errors: FieldError[];
  /** Errors of unchanged values on an update (ratcheting): sent as warnings, not refused. */
  warnings: string[];
}

interface Walk {
  errors: FieldError[];
  warnings: string[];
  budget: number;
}

function pathString(path: string): string {
  return path || '<nil>';
}

function ruleErrorString(rule: ValidationRule): string {
  const message = rule.message ?? '';
  return (message.length > 0 ? message : rule.rule).trim();
}

function typeOf(schema: JSONSchemaProps): string {
  return schema.type ?? '';
}

function errorForReason(
  path: string,
  type: string,
  detail: string,
  reason: ValidationRule['reason'],
): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldError.forbidden(path, detail);
    case 'FieldValueRequired':
      return fieldError.required(path, detail);
    case 'FieldValueDuplicate':
      return fieldError.duplicate(path, type);
    default:
      return fieldError.invalid(path, type, detail);
  }
}

/** cel-go's words for what @bufbuild/cel words differently. */
function celGoMessage(message: string): string {
  const m = /^field not found: (.*)$/.exec(message);
  if (m) return `no such key: ${m[1] ?? ''}`;
  return message;
}

type Outcome = { value: unknown } | { error: string } | { exceeded: true };

function evaluate(
  program: Program,
  bindings: Record<string, unknown>,
  base: number,
  limit: number,
): Outcome & { cost: number } {
  const t = new CostTracker(limit);
  const previous = tracker;
  tracker = t;
  try {
    t.charge(base);
    const r = program(bindings);
    if (t.exceeded) return { exceeded: true, cost: t.cost };
    if (isCelError(r)) return { error: celGoMessage(r.message), cost: t.cost };
    return { value: r, cost: t.cost };
  } catch (err) {
    if (t.exceeded || err instanceof CostExceeded) return { exceeded: true, cost: t.cost };
    return { error: err instanceof Error ? err.message : String(err), cost: t.cost };
  } finally {
    tracker = previous;
  }
}

const OUT_OF_BUDGET =
  'validation failed due to running out of cost budget, no further validation rules will be run';

function validateExpressions(
  v: CelValidator,
  path: string,
  obj: unknown,
  old: unknown,
  ratchet: boolean,
  w: Walk,
): void {
  if (v.rules.length === 0) return;
  const type = typeOf(v.schema);
  const at = pathString(path);
  if (w.budget <= 0) {
    w.errors.push(fieldError.invalid(at, type, OUT_OF_BUDGET));
    w.budget = -1;
    return;
  }
  const bindings: Record<string, unknown> = { self: toCel(obj, v.schema, v.resourceRoot) };
  if (old !== undefined && old !== null) bindings.oldSelf = toCel(old, v.schema, v.resourceRoot);
  for (const c of v.rules) {
    const rule = c.rule;
    if (c.error !== undefined || !c.program) {
      w.errors.push(fieldError.invalid(at, type, `rule compile error: ${c.error ?? 'empty rule'}`));
      continue;
    }
    // Transition rules are evaluated only where there is an old value to compare with.
    if (c.usesOldSelf && bindings.oldSelf === undefined) continue;
    const limit = Math.min(PER_CALL_LIMIT, w.budget);
    const r = evaluate(c.program, bindings, c.nodes, limit);
    if ('exceeded' in r) {
      if (limit < PER_CALL_LIMIT) w.errors.push(fieldError.invalid(at, type, OUT_OF_BUDGET));
      else
        w.errors.push(
          fieldError.invalid(
            at,
            type,
            `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`,
          ),
        );
      w.budget = -1;
      return;
    }
    w.budget -= r.cost;
    if ('error' in r) {
      if (r.error.startsWith('no such overload'))
        w.errors.push(
          fieldError.invalid(
            at,
            type,
            `'${r.error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`,
          ),
        );
      else
        w.errors.push(
          fieldError.invalid(at, type, `${r.error} evaluating rule: ${ruleErrorString(rule)}`),
        );
      continue;
    }
    if (r.value === true) continue;
    const target = path + c.fieldPath || '<nil>';
    let detail: string | undefined;
    if (c.message) {
      const m = evaluate(c.message, bindings, c.messageNodes, Math.min(PER_CALL_LIMIT, w.budget));
      if ('exceeded' in m) {
        w.errors.push(
          fieldError.invalid(
            target,
            type,
            m.cost > w.budget
              ? 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run'
              : `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(rule.messageExpression)}`,
          ),
        );
        w.budget = -1;
        return;
      }
      w.budget -= m.cost;
      if ('value' in m && typeof m.value === 'string') {
        const trimmed = m.value.trim();
        if (
          trimmed &&
          !trimmed.includes('\n') &&
          Buffer.byteLength(trimmed) <= MAX_MESSAGE_EXPRESSION_BYTES
        )
          detail = trimmed;
      }
    }
    detail ??= rule.message ? rule.message.trim() : `failed rule: ${ruleErrorString(rule)}`;
    const e = errorForReason(target, type, detail, rule.reason);
    if (!c.usesOldSelf && ratchet) w.warnings.push(`${e.field}: ${e.body}`);
    else w.errors.push(e);
  }
}

/** The old list's item with the same map keys (`x-kubernetes-list-type: map` only). */
function correlatedItem(schema: JSONSchemaProps, item: unknown, old: unknown): unknown {
  if (schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(old) || !isObject(item))
    return undefined;
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  return old.find((o) => isObject(o) && keys.every((k) => deepEqual(own(o, k), own(item, k))));
}

function walk(
  v: CelValidator,
  path: string,
  obj: unknown,
  old: unknown,
  ratchet: boolean,
  w: Walk,
): void {
  if (obj === null || obj === undefined) return;
  validateExpressions(v, path, obj, old, ratchet, w);
  if (w.budget < 0) return;
  for (const a of v.allOf ?? []) {
    walk(a, path, obj, old, false, w);
    if (w.budget < 0) return;
  }
  const join = (k: string): string => (path ? `${path}.${k}` : k);
  if (Array.isArray(obj) && v.items) {
    const items = v.items;
    for (let i = 0; i < obj.length; i++) {
      const o = correlatedItem(v.schema, obj[i], old);
      // Items of lists that cannot be correlated ratchet with their nearest correlated parent.
      const r = o !== undefined ? deepEqual(obj[i], o) : ratchet;
      walk(items, `${path}[${i}]`, obj[i], o, r, w);
      if (w.budget < 0) return;
    }
    return;
  }
  if (!isObject(obj)) return;
  const oldMap = isObject(old) ? old : undefined;
  for (const k of Object.keys(obj)) {
    const p =
      v.properties?.get(k) ?? (own(v.schema.properties, k) ? undefined : v.additionalProperties);
    if (!p) continue;
    const o = oldMap ? own(oldMap, k) : undefined;
    const childPath = v.properties?.has(k) ? join(k) : `${path}[${k}]`;
    walk(p, childPath, own(obj, k), o, o !== undefined && deepEqual(own(obj, k), o), w);
    if (w.budget < 0) return;
  }
}

/**
 * Evaluates every rule of the object's schema (a resource root) against `obj`, with `old` the
 * stored object on an update. Field errors as kube-apiserver words them; errors of values left
 * unchanged by an update come back as warnings (CRD validation ratcheting, on by default since
 * Kubernetes 1.30), transition rules excepted.
 */
export function validateCel(
  schema: JSONSchemaProps | undefined,
  obj: unknown,
  old?: unknown,
  budget = RUNTIME_COST_BUDGET,
): CelResult {
  const v = celValidator(schema);
  if (!v) return { errors: [], warnings: [] };
  const w: Walk = { errors: [], warnings: [], budget };
  walk(v, '', obj, old, old !== undefined && deepEqual(obj, old), w);
  return { errors: w.errors, warnings: w.warnings };
}

/**
 * Schema errors that stop CEL from running (`hasBlockingErr` in the custom resource strategy):
 * the object does not have the shape the rules were written for.
 */
export function blocksCel(errors: readonly FieldError[]): boolean {
  return errors.some(
    (e) =>
      e.type === 'FieldValueNotSupported' ||
      e.type === 'FieldValueRequired' ||
      e.type === 'FieldValueTooLong' ||
      e.type === 'FieldValueTooMany' ||
      e.type === 'FieldValueTypeInvalid',
  );
}

export const CEL_NOT_CHECKED: FieldError = fieldError.invalid(
  '<nil>',
  'null',
  'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
);
