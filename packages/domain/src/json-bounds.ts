/**
 * Bounds on JSON that comes from users (request bodies, objects someone wrote with kubectl).
 * Loose schemas pass unknown fields through, so without a bound a request can carry a 900 KB
 * string or a 20,000-deep object into the cluster, and every recursive walker (clone, diff,
 * merge) would overflow the stack on it. The walk here is iterative: it never overflows itself.
 *
 * The limits, documented in packages/domain/README.md:
 * - depth 64: Cluster API objects nest about 12 deep; managedFields mirror that;
 * - one string at most 256 KiB: an inline bootstrap file fits, a smuggled blob does not;
 * - the whole value at most 1 MiB of JSON (etcd refuses objects past ~1.5 MiB; a request that
 *   writes several objects must leave room for what they already hold).
 */

export interface JsonLimits {
  maxDepth: number;
  maxStringLength: number;
  maxBytes: number;
}

export const JSON_LIMITS: Readonly<JsonLimits> = {
  maxDepth: 64,
  maxStringLength: 256 * 1024,
  maxBytes: 1024 * 1024,
};

export type JsonBoundsKind = 'depth' | 'string' | 'size';

export interface JsonBoundsProblem {
  kind: JsonBoundsKind;
  /** Dotted path of the offending value (for `size`: the whole value, `''`). */
  path: string;
  limit: number;
}

function isContainer(v: unknown): v is Record<string, unknown> | unknown[] {
  return typeof v === 'object' && v !== null;
}

/**
 * The first bound `value` breaks, or undefined. Size is the length of the JSON text (strings
 * counted by UTF-16 units, which never under-counts their UTF-8 bytes by more than 3×; the string
 * bound catches the rest). Stops at the first problem.
 *
 * Depth first, last member first, as a stack would visit it. With a depth bound it recurses (at
 * most `maxDepth` frames: it cannot overflow) and builds the problem's path only when there is
 * one: joining a path string per value was most of the cost on a large request (issue 25, item 6:
 * every clone and bounds check of a 3,000-entry IP-pool edit walked it). Without a usable bound
 * it walks iteratively.
 */
export function jsonBoundsProblem(
  value: unknown,
  limits: JsonLimits = JSON_LIMITS,
): JsonBoundsProblem | undefined {
  if (!(limits.maxDepth <= RECURSION_LIMIT)) return iterativeBoundsProblem(value, limits);
  const { maxDepth, maxStringLength, maxBytes } = limits;
  let bytes = 0;
  /** The path of the problem, innermost first. */
  const segments: (string | number)[] = [];
  const visit = (v: unknown, depth: number): JsonBoundsKind | undefined => {
    if (typeof v === 'string') {
      if (v.length > maxStringLength) return 'string';
      bytes += v.length + 2;
    } else if (typeof v === 'object' && v !== null) {
      if (depth >= maxDepth) return 'depth';
      bytes += 2;
      if (Array.isArray(v)) {
        const list = v as unknown[];
        bytes += list.length;
        if (bytes > maxBytes) return 'size';
        for (let i = list.length - 1; i >= 0; i--) {
          const kind = visit(list[i], depth + 1);
          if (kind) {
            if (kind !== 'size') segments.push(i);
            return kind;
          }
        }
        return undefined;
      }
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record);
      for (const k of keys) {
        if (k.length > maxStringLength) {
          segments.push(k.slice(0, 40));
          return 'string';
        }
        bytes += k.length + 4;
      }
      if (bytes > maxBytes) return 'size';
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i];
        if (k === undefined) continue;
        const kind = visit(record[k], depth + 1);
        if (kind) {
          if (kind !== 'size') segments.push(k);
          return kind;
        }
      }
      return undefined;
    } else {
      bytes += 8;
    }
    return bytes > maxBytes ? 'size' : undefined;
  };
  const kind = visit(value, 0);
  if (!kind) return undefined;
  if (kind === 'size') return { kind, path: '', limit: maxBytes };
  return {
    kind,
    path: segments.reverse().join('.'),
    limit: kind === 'depth' ? maxDepth : maxStringLength,
  };
}

/** Depth bounds up to this are walked recursively (far below any engine's stack). */
const RECURSION_LIMIT = 1000;

/** {@link jsonBoundsProblem} with an explicit stack, for a depth bound too large to recurse to. */
function iterativeBoundsProblem(value: unknown, limits: JsonLimits): JsonBoundsProblem | undefined {
  const stack: { v: unknown; depth: number; path: string }[] = [{ v: value, depth: 0, path: '' }];
  let bytes = 0;
  const join = (path: string, key: string | number) => (path === '' ? `${key}` : `${path}.${key}`);
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop() as { v: unknown; depth: number; path: string };
    if (typeof v === 'string') {
      if (v.length > limits.maxStringLength) {
        return { kind: 'string', path, limit: limits.maxStringLength };
      }
      bytes += v.length + 2;
    } else if (isContainer(v)) {
      if (depth >= limits.maxDepth) return { kind: 'depth', path, limit: limits.maxDepth };
      bytes += 2;
      if (Array.isArray(v)) {
        v.forEach((x, i) => {
          bytes += 1;
          stack.push({ v: x, depth: depth + 1, path: join(path, i) });
        });
      } else {
        for (const k of Object.keys(v)) {
          if (k.length > limits.maxStringLength) {
            return {
              kind: 'string',
              path: join(path, k.slice(0, 40)),
              limit: limits.maxStringLength,
            };
          }
          bytes += k.length + 4;
          stack.push({ v: v[k], depth: depth + 1, path: join(path, k) });
        }
      }
    } else {
      bytes += 8;
    }
    if (bytes > limits.maxBytes) return { kind: 'size', path: '', limit: limits.maxBytes };
  }
  return undefined;
}

/** Thrown where a walker meets a value past the bounds; planners turn it into a RuleIssue. */
export class JsonBoundsError extends Error {
  constructor(readonly problem: JsonBoundsProblem) {
    super(
      problem.kind === 'depth'
        ? `${problem.path || 'the value'} nests deeper than ${problem.limit} levels`
        : problem.kind === 'string'
          ? `${problem.path || 'the value'} is a string longer than ${problem.limit} characters`
          : `the value is larger than ${problem.limit} bytes of JSON`,
    );
    this.name = 'JsonBoundsError';
  }
}

/** Throws {@link JsonBoundsError} when `value` is past the depth bound (the one walkers need). */
export function assertJsonDepth(value: unknown, maxDepth = JSON_LIMITS.maxDepth): void {
  const problem = jsonBoundsProblem(value, {
    maxDepth,
    maxStringLength: Number.POSITIVE_INFINITY,
    maxBytes: Number.POSITIVE_INFINITY,
  });
  if (problem) throw new JsonBoundsError(problem);
}

/** Keys that plain assignment would turn into a prototype change: set as own data instead. */
const SPECIAL_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * `target[key] = value` that keeps `__proto__`, `constructor` and `prototype` inert: they become
 * own data properties, as JSON.parse makes them, never a change of the object's prototype.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (SPECIAL_KEYS.has(key)) {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}
