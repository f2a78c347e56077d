/**
 * RFC 6902 JSON patch with the error texts of github.com/evanphx/json-patch (which kube-apiserver
 * uses): a malformed patch is a 400, an operation that does not apply (a failing `test`, a missing
 * path) is a 422 "the server rejected our request due to an error in our request".
 */
import { clone, deepEqual, isObject, own, put, removeKey } from '../json';
import { MAX_DEPTH, MAX_PATCH_COPY_BYTES, MAX_PATCH_OPERATIONS, measure, tooDeep } from '../limits';
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
 * The document stays within MAX_DEPTH after every operation, so that nothing recursive (the
 * clones here, `test`'s comparison, what the server does with the result) meets a deeper one.
 * Checked before the value is copied in.
 */
function checkDepthAt(parts: readonly string[], value: unknown, path: string): void {
  if (parts.length + measure(value, Number.POSITIVE_INFINITY, MAX_DEPTH).depth > MAX_DEPTH) {
    throw tooDeep(`the JSON patch result at ${JSON.stringify(path)}`);
  }
}

/** Inserts `value` as is: the caller passes a value nobody else holds (a clone, or a moved one). */
function add(doc: unknown, path: string, value: unknown): unknown {
  const parts = decodePointer(path);
  checkDepthAt(parts, value, path);
  if (parts.length === 0) return value;
  const [parent, key] = parentOf(doc, parts, 'add', path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, value);
  else put(parent, key, value);
  return doc;
}

function remove(doc: unknown, path: string, op = 'remove'): unknown {
  const parts = decodePointer(path);
  const [parent, key] = parentOf(doc, parts, op, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false), 1);
  else {
    if (!Object.hasOwn(parent, key)) {
      throw new NotApplicable(`Unable to remove nonexistent key: ${key}: missing value`);
    }
    removeKey(parent, key);
  }
  return doc;
}

export function applyJsonPatch(target: unknown, ops: readonly Op[]): unknown {
  let doc = clone(target);
  // What `copy` operations have duplicated so far: 23 copies of a document into itself double
  // it 23 times from a 1 KB request (CVE-2019-1002100), so the total is bounded, not each copy.
  let copied = 0;
  try {
    for (const o of ops) {
      switch (o.op) {
        case 'add':
          if (!o.hasValue) throw new NotApplicable('add operation does not apply: missing value');
          doc = add(doc, o.path, clone(o.value));
          break;
        case 'remove':
          doc = remove(doc, o.path);
          break;
        case 'replace': {
          const parts = decodePointer(o.path);
          checkDepthAt(parts, o.value, o.path);
          if (parts.length === 0) {
            doc = clone(o.value);
            break;
          }
          const [parent, key] = parentOf(doc, parts, 'replace', o.path);
          if (Array.isArray(parent)) parent[arrayIndex(parent, key, false)] = clone(o.value);
          else {
            if (!Object.hasOwn(parent, key)) {
              throw new NotApplicable(
                `replace operation does not apply: doc is missing key: ${o.path}: missing value`,
              );
            }
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
          if (o.op === 'move') {
            // The moved value leaves its place: it is inserted as is, never copied.
            doc = remove(doc, from, 'move');
            doc = add(doc, o.path, v);
            break;
          }
          const size = measure(v, MAX_PATCH_COPY_BYTES - copied).bytes;
          copied += size;
          if (copied > MAX_PATCH_COPY_BYTES) {
            throw new ApiError(
              413,
              'RequestEntityTooLarge',
              `Request entity too large: the copy operations of a JSON patch may copy at most ${MAX_PATCH_COPY_BYTES} bytes in total; the copy to ${JSON.stringify(o.path)} would exceed it`,
            );
          }
          checkDepthAt(decodePointer(o.path), v, o.path);
          doc = add(doc, o.path, clone(v));
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
