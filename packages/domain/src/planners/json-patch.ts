/**
 * JSON Patch (RFC 6902), JSON Pointer (RFC 6901) and JSON Merge Patch (RFC 7386), pure.
 *
 * Planners write every change to an existing object as a JSON patch whose first ops are `test`
 * ops: the server applies the patch only if the object is still the one the user saw (R-POOL-4).
 * The same applier runs in the tests, in the simulator and in the BFF's previews, so a plan is
 * proven against the very semantics the API server uses. Note that Kubernetes answers a failed
 * `test` op with 422 Unprocessable Entity, not 409: callers treat both as a conflict.
 */

import { assertJsonDepth, JSON_LIMITS, setOwn } from '../json-bounds';

/** A JSON Pointer (RFC 6901), such as `/spec/pool/3/ip`. */
export type JsonPointer = string;

export type JsonPatchOp =
  | { op: 'add'; path: JsonPointer; value: unknown }
  | { op: 'remove'; path: JsonPointer }
  | { op: 'replace'; path: JsonPointer; value: unknown }
  | { op: 'move'; from: JsonPointer; path: JsonPointer }
  | { op: 'copy'; from: JsonPointer; path: JsonPointer }
  | { op: 'test'; path: JsonPointer; value: unknown };

export type JsonPatchTestOp = Extract<JsonPatchOp, { op: 'test' }>;

export type JsonPatchErrorCode =
  'TEST_FAILED' | 'PATH_NOT_FOUND' | 'INVALID_POINTER' | 'INVALID_INDEX' | 'INVALID_TARGET';

/** Why a patch could not be applied, and at which op (0-based). */
export class JsonPatchError extends Error {
  constructor(
    readonly code: JsonPatchErrorCode,
    readonly opIndex: number,
    readonly op: JsonPatchOp,
    message: string,
  ) {
    super(`op ${opIndex} (${op.op} ${op.path}): ${message}`);
    this.name = 'JsonPatchError';
  }
}

// --- builders -----------------------------------------------------------------------------------

/** Escapes one reference token (`~` → `~0`, `/` → `~1`): annotation keys contain slashes. */
export function escapePointerToken(token: string | number): string {
  if (typeof token === 'number') return String(token);
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Builds a pointer from unescaped tokens: `pointer('metadata', 'annotations', 'a/b')`. */
export function pointer(...tokens: (string | number)[]): JsonPointer {
  return tokens.map((t) => `/${escapePointerToken(t)}`).join('');
}

/** Splits a pointer into its unescaped tokens; `''` is the whole document. */
export function parsePointer(path: JsonPointer): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new Error(`a JSON pointer starts with "/": ${path}`);
  const tokens = path.slice(1).split('/');
  if (!path.includes('~')) return tokens;
  return tokens.map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export const testOp = (path: JsonPointer, value: unknown): JsonPatchTestOp => ({
  op: 'test',
  path,
  value,
});
export const addOp = (path: JsonPointer, value: unknown): JsonPatchOp => ({
  op: 'add',
  path,
  value,
});
export const replaceOp = (path: JsonPointer, value: unknown): JsonPatchOp => ({
  op: 'replace',
  path,
  value,
});
export const removeOp = (path: JsonPointer): JsonPatchOp => ({ op: 'remove', path });

/** The optimistic-concurrency guard every planner puts first (R-POOL-4). */
export const testResourceVersion = (resourceVersion: string): JsonPatchTestOp =>
  testOp('/metadata/resourceVersion', resourceVersion);

export const isTestOp = (op: JsonPatchOp): op is JsonPatchTestOp => op.op === 'test';

// --- values -------------------------------------------------------------------------------------

type Container = Record<string, unknown> | unknown[];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A deep copy through JSON: what the wire would carry (undefined members vanish). A value nested
 * past the depth bound throws a {@link JsonBoundsError} instead of overflowing the stack
 * (JSON.stringify recurses); planners turn it into a RuleIssue.
 */
export function jsonClone<T>(value: T): T {
  if (value === undefined) return value;
  // Plain JSON data (what planners hold: parsed bodies, cached objects) is copied member by member,
  // several times faster than a JSON round trip plus a depth walk (issue 25, item 6: a 3,000-entry
  // IP-pool edit cloned each entry several times). Anything else takes the round trip.
  const copy = plainCopy(value, 0);
  if (copy !== NOT_PLAIN) return copy as T;
  assertJsonDepth(value);
  return JSON.parse(JSON.stringify(value)) as T;
}

const NOT_PLAIN: unique symbol = Symbol('not plain JSON');

/**
 * A copy of `v` if it is plain JSON (objects of Object's or no prototype without `toJSON`,
 * arrays, strings, finite numbers, booleans, null; `undefined` members, which the wire drops, are
 * left out) as JSON.parse(JSON.stringify(v)) makes it: `__proto__` an own member. NOT_PLAIN
 * otherwise, and past the depth bound (the caller's depth walk then names the place).
 */
function plainCopy(v: unknown, depth: number): unknown {
  if (typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : NOT_PLAIN;
  if (typeof v !== 'object') return NOT_PLAIN;
  if (depth >= JSON_LIMITS.maxDepth) return NOT_PLAIN;
  if (Array.isArray(v)) {
    const list = v as unknown[];
    const out = new Array<unknown>(list.length);
    for (let i = 0; i < list.length; i++) {
      const x = list[i];
      // JSON writes an undefined element as null.
      const c = x === undefined ? null : plainCopy(x, depth + 1);
      if (c === NOT_PLAIN) return NOT_PLAIN;
      out[i] = c;
    }
    return out;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const record = v as Record<string, unknown>;
  if (typeof record.toJSON === 'function') return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(record)) {
    const x = record[k];
    if (x === undefined) continue;
    const c = plainCopy(x, depth + 1);
    if (c === NOT_PLAIN) return NOT_PLAIN;
    if (k === '__proto__') setOwn(out, k, c);
    else out[k] = c;
  }
  return out;
}

/** Structural equality of JSON values (object key order does not matter), as `test` compares. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    // Own members only: `k in b` would find `constructor` or `__proto__` on every object.
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

// --- applying -----------------------------------------------------------------------------------

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

interface Located {
  parent: Container;
  key: string;
}

class Applier {
  constructor(
    private doc: unknown,
    private readonly opIndex: number,
    private readonly op: JsonPatchOp,
  ) {}

  get result(): unknown {
    return this.doc;
  }

  private fail(code: JsonPatchErrorCode, message: string): never {
    throw new JsonPatchError(code, this.opIndex, this.op, message);
  }

  private tokens(path: JsonPointer): string[] {
    try {
      return parsePointer(path);
    } catch (e) {
      return this.fail('INVALID_POINTER', (e as Error).message);
    }
  }

  get(path: JsonPointer): unknown {
    return this.getTokens(this.tokens(path));
  }

  private getTokens(tokens: readonly string[]): unknown {
    let cur = this.doc;
    for (const t of tokens) {
      if (Array.isArray(cur)) {
        if (!ARRAY_INDEX.test(t)) this.fail('INVALID_INDEX', `"${t}" is not an array index`);
        const i = Number(t);
        if (i >= cur.length) this.fail('PATH_NOT_FOUND', `index ${t} is past the end`);
        cur = cur[i];
      } else if (isRecord(cur)) {
        if (!Object.hasOwn(cur, t)) this.fail('PATH_NOT_FOUND', `no member "${t}"`);
        cur = cur[t];
      } else {
        this.fail('PATH_NOT_FOUND', `cannot descend into a ${typeof cur} at "${t}"`);
      }
    }
    return cur;
  }

  private locate(path: JsonPointer): Located | undefined {
    const tokens = this.tokens(path);
    const key = tokens.pop();
    if (key === undefined) return undefined;
    const parent = this.getTokens(tokens);
    if (!Array.isArray(parent) && !isRecord(parent)) {
      return this.fail('INVALID_TARGET', 'the parent is not an object or array');
    }
    return { parent, key };
  }

  private index(parent: unknown[], key: string, forInsert: boolean): number {
    if (forInsert && key === '-') return parent.length;
    if (!ARRAY_INDEX.test(key)) this.fail('INVALID_INDEX', `"${key}" is not an array index`);
    const i = Number(key);
    if (i > parent.length || (!forInsert && i === parent.length)) {
      this.fail('INVALID_INDEX', `index ${key} is out of bounds (length ${parent.length})`);
    }
    return i;
  }

  add(path: JsonPointer, value: unknown): void {
    const at = this.locate(path);
    if (!at) {
      this.doc = value;
      return;
    }
    if (Array.isArray(at.parent)) at.parent.splice(this.index(at.parent, at.key, true), 0, value);
    else setOwn(at.parent, at.key, value);
  }

  remove(path: JsonPointer): unknown {
    const at = this.locate(path);
    if (!at) {
      const old = this.doc;
      this.doc = undefined;
      return old;
    }
    if (Array.isArray(at.parent)) {
      return at.parent.splice(this.index(at.parent, at.key, false), 1)[0];
    }
    if (!Object.hasOwn(at.parent, at.key)) this.fail('PATH_NOT_FOUND', `no member "${at.key}"`);
    const old = at.parent[at.key];
    // Rebuilding without the key would lose the identity callers hold; delete is the point here.
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
    delete at.parent[at.key];
    return old;
  }

  replace(path: JsonPointer, value: unknown): void {
    const at = this.locate(path);
    if (!at) {
      this.doc = value;
      return;
    }
    if (Array.isArray(at.parent)) at.parent[this.index(at.parent, at.key, false)] = value;
    else {
      if (!Object.hasOwn(at.parent, at.key)) this.fail('PATH_NOT_FOUND', `no member "${at.key}"`);
      setOwn(at.parent, at.key, value);
    }
  }

  test(path: JsonPointer, value: unknown): void {
    const actual = this.get(path);
    if (!jsonEqual(actual, value)) {
      this.fail(
        'TEST_FAILED',
        `expected ${JSON.stringify(value)}, found ${JSON.stringify(actual)}`,
      );
    }
  }
}

/**
 * Applies a JSON patch and returns the patched copy; the input is never modified. Atomic like
 * the server: any failing op (a stale `test` included) throws a {@link JsonPatchError}.
 */
export function applyJsonPatch<T>(doc: T, ops: readonly JsonPatchOp[]): T {
  let cur: unknown = jsonClone(doc);
  ops.forEach((op, i) => {
    cur = applyOpInPlace(cur, op, i);
  });
  return cur as T;
}

/**
 * One op applied to `doc` itself, which it changes (the caller owns it); the result is the new
 * root. Throws as {@link applyJsonPatch} does; `doc` may then be half changed.
 */
function applyOpInPlace(doc: unknown, op: JsonPatchOp, i: number): unknown {
  const a = new Applier(doc, i, op);
  switch (op.op) {
    case 'add':
      a.add(op.path, jsonClone(op.value));
      break;
    case 'remove':
      a.remove(op.path);
      break;
    case 'replace':
      a.replace(op.path, jsonClone(op.value));
      break;
    case 'test':
      a.test(op.path, op.value);
      break;
    case 'copy':
      a.add(op.path, jsonClone(a.get(op.from)));
      break;
    case 'move': {
      if (op.path.startsWith(`${op.from}/`)) {
        throw new JsonPatchError('INVALID_TARGET', i, op, 'cannot move a value into itself');
      }
      const v = a.remove(op.from);
      a.add(op.path, v);
      break;
    }
  }
  return a.result;
}

export type JsonPatchResult<T> = { ok: true; doc: T } | { ok: false; error: JsonPatchError };

/** {@link applyJsonPatch} without throwing. */
export function tryApplyJsonPatch<T>(doc: T, ops: readonly JsonPatchOp[]): JsonPatchResult<T> {
  try {
    return { ok: true, doc: applyJsonPatch(doc, ops) };
  } catch (e) {
    if (e instanceof JsonPatchError) return { ok: false, error: e };
    throw e;
  }
}

/** JSON Merge Patch (RFC 7386): objects merge, `null` deletes a member, anything else replaces. */
export function applyMergePatch<T>(target: T, patch: unknown): T {
  assertJsonDepth(patch);
  return mergeInto(target, patch) as T;
}

function mergeInto(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return jsonClone(patch);
  const out: Record<string, unknown> = isRecord(target) ? jsonClone(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
      delete out[k];
    } else if (v !== undefined) {
      // `__proto__` and friends stay inert: own data members, as JSON has them.
      setOwn(out, k, mergeInto(Object.hasOwn(out, k) ? out[k] : undefined, v));
    }
  }
  return out;
}

// --- inverting ----------------------------------------------------------------------------------

/** The value at `path`, or `found: false`; never throws on a valid pointer. */
export function getAtPointer(
  doc: unknown,
  path: JsonPointer,
): { found: true; value: unknown } | { found: false } {
  return getAtTokens(doc, parsePointer(path));
}

function getAtTokens(
  doc: unknown,
  tokens: readonly string[],
): { found: true; value: unknown } | { found: false } {
  let cur = doc;
  for (const t of tokens) {
    if (Array.isArray(cur) && ARRAY_INDEX.test(t) && Number(t) < cur.length) cur = cur[Number(t)];
    else if (isRecord(cur) && Object.hasOwn(cur, t)) cur = cur[t];
    else return { found: false };
  }
  return { found: true, value: cur };
}

export interface InvertOptions {
  /**
   * For an added object value, the member that identifies it (`ip` of a pool entry, `slot` of a
   * persistent disk): the undo tests that member instead of the whole value, so that a field the
   * server defaulted does not make the undo fail.
   */
  identityOf?: (value: unknown) => { path: JsonPointer; value: unknown } | undefined;
}

/**
 * The patch that undoes `ops` applied to `doc`: for each change, `test` ops that the value is
 * still the one written, then the op that restores the old value; in reverse order. Test ops of
 * `ops` themselves are dropped (they changed nothing). Throws if `ops` do not apply to `doc`.
 */
export function invertJsonPatch(
  doc: unknown,
  ops: readonly JsonPatchOp[],
  options: InvertOptions = {},
): JsonPatchOp[] {
  const guard = (path: JsonPointer, value: unknown): JsonPatchTestOp => {
    const id = isRecord(value) ? options.identityOf?.(value) : undefined;
    return id ? testOp(`${path}${id.path}`, id.value) : testOp(path, value);
  };
  // `state` is one private copy, changed op by op in place (issue 25, item 6: a copy of the whole
  // object per op made 3,000 appended pool entries take 21 s); what the undo keeps of it is copied
  // out, since later ops change it.
  const peek = (d: unknown, path: JsonPointer): unknown => {
    const r = getAtPointer(d, path);
    return r.found ? r.value : undefined;
  };
  const valueAt = (d: unknown, path: JsonPointer): unknown => jsonClone(peek(d, path));
  const groups: JsonPatchOp[][] = [];
  let state = jsonClone(doc);
  for (const [i, op] of ops.entries()) {
    if (op.op === 'test') {
      state = applyOpInPlace(state, op, i);
      continue;
    }
    // A bad op throws as the server would refuse it: add, remove and replace when applied below,
    // a move or copy here, on a copy (rare ops: the copy's cost is not per entry).
    if (op.op === 'move' || op.op === 'copy') applyJsonPatch(state, [op]);
    const primitives: JsonPatchOp[] =
      op.op === 'move'
        ? [removeOp(op.from), addOp(op.path, valueAt(state, op.from))]
        : op.op === 'copy'
          ? [addOp(op.path, valueAt(state, op.from))]
          : [op];
    for (const p of primitives) {
      const tokens = parsePointer(p.path);
      const up = getAtTokens(state, tokens.slice(0, -1));
      const parent = up.found ? up.value : undefined;
      const last = tokens.at(-1);
      // `-` appends: the undo needs the index the value landed at.
      const path =
        Array.isArray(parent) && last === '-'
          ? pointer(...tokens.slice(0, -1), parent.length)
          : p.path;
      // Into an array, an add inserts: its undo removes, whatever was at the index before.
      const before: ReturnType<typeof getAtPointer> =
        p.op === 'add' && Array.isArray(parent) ? { found: false } : getAtPointer(state, path);
      if (p.op === 'add') {
        groups.push(
          Array.isArray(parent) || !before.found
            ? [guard(path, p.value), removeOp(path)]
            : [guard(path, p.value), replaceOp(path, jsonClone(before.value))],
        );
      } else if (p.op === 'remove') {
        groups.push([addOp(path, valueAt(state, path))]);
      } else if (p.op === 'replace') {
        groups.push([guard(path, p.value), replaceOp(path, valueAt(state, path))]);
      }
      state = applyOpInPlace(state, p, i);
    }
  }
  return groups.reverse().flat();
}
