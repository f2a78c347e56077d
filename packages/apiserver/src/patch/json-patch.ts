/**
 * RFC 6902 JSON patch with the error texts of github.com/evanphx/json-patch (which kube-apiserver
 * uses): a malformed patch is a 400, an operation that does not apply (a failing `test`, a missing
 * path) is a 422 "the server rejected our request due to an error in our request".
 */
import { clone, deepEqual, isObject, own, put, removeKey } from '../json';
import {
  MAX_BODY_BYTES,
  MAX_DEPTH,
  MAX_OBJECT_BYTES,
  MAX_PATCH_COPY_BYTES,
  MAX_PATCH_OPERATIONS,
  MAX_PATCH_SHIFTED_ELEMENTS,
  measure,
  tooDeep,
} from '../limits';
import { ApiError, badRequest } from '../status';

interface Op {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
  hasValue: boolean;
}

/** Thrown inside; turned into the 422 the real server answers. */
class NotApplicable extends Error {}

export function parseJsonPatch(body: unknown): Op[] {
  if (!Array.isArray(body)) {
    throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  }
  // Counted before anything else is looked at: the count bounds the work of the patch.
  if (body.length > MAX_PATCH_OPERATIONS) {
    throw new ApiError(
      413,
      'RequestEntityTooLarge',
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_PATCH_OPERATIONS}, got ${body.length}`,
    );
  }
  const ops: Op[] = [];
  for (const raw of body as unknown[]) {
    if (!isObject(raw) || typeof raw.op !== 'string') throw badRequest('Unexpected kind: unknown');
    if (typeof raw.path !== 'string') throw badRequest(`operation missing path field`);
    const op: Op = { op: raw.op, path: raw.path, hasValue: 'value' in raw, value: raw.value };
    if (typeof raw.from === 'string') op.from = raw.from;
    ops.push(op);
  }
  return ops;
}

function decodePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/'))
    throw new NotApplicable(`JSON pointer must be empty or start with a "/": ${path}`);
  return path
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = Record<string, unknown> | unknown[];

function parentOf(doc: unknown, parts: string[], op: string, path: string): [Container, string] {
  let cur: unknown = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const p = parts[i] ?? '';
    if (Array.isArray(cur)) cur = /^\d+$/.test(p) ? cur[Number(p)] : undefined;
    else if (isObject(cur)) cur = own(cur, p);
    else cur = undefined;
    if (cur === undefined || cur === null) {
      throw new NotApplicable(
        `${op} operation does not apply: doc is missing path: "${path}": missing value`,
      );
    }
  }
  if (!Array.isArray(cur) && !isObject(cur)) {
    throw new NotApplicable(
      `${op} operation does not apply: doc is missing path: "${path}": missing value`,
    );
  }
  return [cur, parts[parts.length - 1] ?? ''];
}

function arrayIndex(arr: unknown[], key: string, forAdd: boolean): number {
  if (forAdd && key === '-') return arr.length;
  if (!/^\d+$/.test(key))
    throw new NotApplicable(`Unable to access invalid index: ${key}: invalid index referenced`);
  const idx = Number(key);
  const max = forAdd ? arr.length : arr.length - 1;
  if (idx > max)
    throw new NotApplicable(`Unable to access invalid index: ${idx}: invalid index referenced`);
  return idx;
}

function getAt(doc: unknown, path: string): unknown {
  let cur = doc;
  for (const p of decodePointer(path)) {
    if (Array.isArray(cur)) cur = /^\d+$/.test(p) ? cur[Number(p)] : undefined;
    else if (isObject(cur)) cur = own(cur, p);
    else return undefined;
  }
  return cur;
}

/**
 * What one patch may cost, counted as it is applied so that a patch refused for its cost is
 * refused as soon as it is too costly (issue 25, item 10: a 1M-element array and 9,000 inserts at
 * its head held the server 3-7 s and took 300 MB before the object-size 413). Upstream has only
 * the operation count and the body limit: Go's slices shift as ours do, on more cores and behind
 * priority and fairness. Here one request may hold the process for at most tens of milliseconds.
 */
class Budget {
  /** The document's size as JSON (limits.ts' measure), kept up to date by every operation. */
  private size: number;
  private copied = 0;
  private shifted = 0;
  private walked = 0;

  constructor(doc: unknown) {
    this.size = measure(doc, MAX_OBJECT_BYTES).bytes;
    this.checkSize();
  }

  private checkSize(): void {
    if (this.size > MAX_OBJECT_BYTES) throw objectTooLarge();
  }

  /** A value (or a key and its value) enters the document. */
  grow(bytes: number): void {
    this.size += bytes;
    this.checkSize();
  }

  shrink(bytes: number): void {
    this.size -= bytes;
  }

  /** `copy` operations duplicate at most MAX_PATCH_COPY_BYTES in total (CVE-2019-1002100). */
  copy(value: unknown, path: string): number {
    const size = measure(value, MAX_PATCH_COPY_BYTES - this.copied).bytes;
    this.copied += size;
    if (this.copied > MAX_PATCH_COPY_BYTES) {
      throw new ApiError(
        413,
        'RequestEntityTooLarge',
        `Request entity too large: the copy operations of a JSON patch may copy at most ${MAX_PATCH_COPY_BYTES} bytes in total; the copy to ${JSON.stringify(path)} would exceed it`,
      );
    }
    return size;
  }

  /** An insert or removal inside an array moves the elements after it: O(length) each time. */
  shift(elements: number, op: string, path: string): void {
    this.shifted += elements;
    if (this.shifted > MAX_PATCH_SHIFTED_ELEMENTS) {
      throw new ApiError(
        413,
        'RequestEntityTooLarge',
        `Request entity too large: the operations of a JSON patch may shift at most ${MAX_PATCH_SHIFTED_ELEMENTS} array elements in total; the ${op} at ${JSON.stringify(path)} would exceed it`,
      );
    }
  }

  /** Walks of values already in the document (a moved value's depth) cost at most a body. */
  walk(value: unknown, maxDepth: number, path: string): number {
    const left = MAX_BODY_BYTES - this.walked;
    const m = measure(value, left, maxDepth);
    this.walked += m.bytes;
    if (this.walked > MAX_BODY_BYTES) {
      throw new ApiError(
        413,
        'RequestEntityTooLarge',
        `Request entity too large: the move operations of a JSON patch may move values of at most ${MAX_BODY_BYTES} bytes deeper in total; the move to ${JSON.stringify(path)} would exceed it`,
      );
    }
    return m.depth;
  }
}

function objectTooLarge(): ApiError {
  return new ApiError(
    413,
    'RequestEntityTooLarge',
    `Request entity too large: the object is larger than the limit of ${MAX_OBJECT_BYTES} bytes`,
  );
}

/** What a member adds to its container besides its value: a key and its quotes and colon, a comma. */
function memberBytes(container: Container, key: string): number {
  return Array.isArray(container) ? 1 : key.length + 4;
}

/**
 * Inserts `value` (of `bytes` bytes) as is: the caller passes a value nobody else holds (a clone,
 * or a moved one) and has checked its depth.
 */
function add(
  doc: unknown,
  parts: string[],
  path: string,
  value: unknown,
  bytes: number,
  b: Budget,
): unknown {
  if (parts.length === 0) {
    b.shrink(measure(doc).bytes);
    b.grow(bytes);
    return value;
  }
  const [parent, key] = parentOf(doc, parts, 'add', path);
  if (Array.isArray(parent)) {
    const idx = arrayIndex(parent, key, true);
    b.shift(parent.length - idx, 'add', path);
    b.grow(bytes + 1);
    parent.splice(idx, 0, value);
  } else {
    const had = Object.hasOwn(parent, key);
    if (had) b.shrink(measure(parent[key]).bytes);
    b.grow(bytes + (had ? 0 : memberBytes(parent, key)));
    put(parent, key, value);
  }
  return doc;
}

/** Removes the value at `path` and returns it. */
function remove(doc: unknown, path: string, b: Budget, op = 'remove'): unknown {
  const parts = decodePointer(path);
  const [parent, key] = parentOf(doc, parts, op, path);
  let removed: unknown;
  if (Array.isArray(parent)) {
    const idx = arrayIndex(parent, key, false);
    b.shift(parent.length - idx - 1, op, path);
    removed = parent[idx];
    parent.splice(idx, 1);
  } else {
    if (!Object.hasOwn(parent, key)) {
      throw new NotApplicable(`Unable to remove nonexistent key: ${key}: missing value`);
    }
    removed = parent[key];
    removeKey(parent, key);
  }
  return removed;
}

/**
 * The document stays within MAX_DEPTH after every operation, so that nothing recursive (the
 * clones here, `test`'s comparison, what the server does with the result) meets a deeper one,
 * and within the object limit. Checked before the value is copied in, by one walk that stops at
 * whichever limit it passes first; returns the value's size. The value comes from the operation
 * (or is a copy, bounded by the copy budget), so these walks together cost at most the body.
 */
function checkDepthAt(parts: readonly string[], value: unknown, path: string): number {
  const m = measure(value, MAX_OBJECT_BYTES, MAX_DEPTH - parts.length);
  if (parts.length + m.depth > MAX_DEPTH) {
    throw tooDeep(`the JSON patch result at ${JSON.stringify(path)}`);
  }
  if (m.bytes > MAX_OBJECT_BYTES) throw objectTooLarge();
  return m.bytes;
}

export function applyJsonPatch(target: unknown, ops: readonly Op[]): unknown {
  let doc = clone(target);
  const b = new Budget(doc);
  try {
    for (const o of ops) {
      switch (o.op) {
        case 'add': {
          if (!o.hasValue) throw new NotApplicable('add operation does not apply: missing value');
          const parts = decodePointer(o.path);
          const bytes = checkDepthAt(parts, o.value, o.path);
          doc = add(doc, parts, o.path, clone(o.value), bytes, b);
          break;
        }
        case 'remove': {
          const removed = remove(doc, o.path, b);
          b.shrink(measure(removed).bytes);
          break;
        }
        case 'replace': {
          const parts = decodePointer(o.path);
          const bytes = checkDepthAt(parts, o.value, o.path);
          if (parts.length === 0) {
            b.shrink(measure(doc).bytes);
            b.grow(bytes);
            doc = clone(o.value);
            break;
          }
          const [parent, key] = parentOf(doc, parts, 'replace', o.path);
          if (Array.isArray(parent)) {
            const idx = arrayIndex(parent, key, false);
            b.shrink(measure(parent[idx]).bytes);
            b.grow(bytes);
            parent[idx] = clone(o.value);
          } else {
            if (!Object.hasOwn(parent, key)) {
              throw new NotApplicable(
                `replace operation does not apply: doc is missing key: ${o.path}: missing value`,
              );
            }
            b.shrink(measure(parent[key]).bytes);
            b.grow(bytes);
            put(parent, key, clone(o.value));
          }
          break;
        }
        case 'move':
        case 'copy': {
          const from = o.from ?? '';
          const v = getAt(doc, from);
          if (v === undefined) {
            throw new NotApplicable(
              `${o.op} operation does not apply: doc is missing from path: ${from}: missing value`,
            );
          }
          const parts = decodePointer(o.path);
          if (o.op === 'move') {
            // The moved value leaves its place: it is inserted as is, never copied. Only a move
            // deeper can make the document too deep, and only then is the value walked.
            const fromParts = decodePointer(from);
            if (parts.length > fromParts.length) {
              const depth = b.walk(v, MAX_DEPTH - parts.length + 1, o.path);
              if (parts.length + depth > MAX_DEPTH)
                throw tooDeep(`the JSON patch result at ${JSON.stringify(o.path)}`);
            }
            remove(doc, from, b, 'move');
            // Its size stays in the document: only the key around it changes.
            doc = add(doc, parts, o.path, v, 0, b);
            break;
          }
          const size = b.copy(v, o.path);
          checkDepthAt(parts, v, o.path);
          doc = add(doc, parts, o.path, clone(v), size, b);
          break;
        }
        case 'test': {
          const v = getAt(doc, o.path);
          const matches = v === undefined ? o.value === null || !o.hasValue : deepEqual(v, o.value);
          if (!matches) throw new NotApplicable(`testing value ${o.path} failed: test failed`);
          break;
        }
        default:
          throw badRequest(`Unexpected kind: ${o.op}`);
      }
    }
  } catch (e) {
    if (e instanceof NotApplicable) {
      throw new ApiError(
        422,
        'Invalid',
        'the server rejected our request due to an error in our request',
        {},
      );
    }
    throw e;
  }
  return doc;
}
