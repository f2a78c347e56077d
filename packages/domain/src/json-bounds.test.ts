import { describe, expect, it } from 'vitest';
import { jsonClone } from './planners/json-patch';
import { assertJsonDepth, JSON_LIMITS, jsonBoundsProblem, JsonBoundsError } from './json-bounds';

/**
 * Issue 25, item 6: the bounds walk and jsonClone were most of a 3,000-entry IP-pool edit's
 * planner time (a path string joined per value; a JSON round trip and a depth walk per clone).
 * The fast paths must answer exactly what the walks they replace answered.
 */

/** A pseudo-random JSON value (deterministic), with the odd long string, deep branch and key. */
function randomJson(seed: number): unknown {
  let s = seed;
  const rnd = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  const value = (depth: number): unknown => {
    const r = rnd();
    if (depth > 6 || r < 0.3) {
      const t = rnd();
      if (t < 0.3) return 'x'.repeat(Math.floor(rnd() * 40));
      if (t < 0.35) return 'y'.repeat(300);
      if (t < 0.6) return Math.floor(rnd() * 1000);
      if (t < 0.8) return rnd() < 0.5;
      return null;
    }
    if (r < 0.6) return Array.from({ length: Math.floor(rnd() * 4) }, () => value(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = Math.floor(rnd() * 4); i > 0; i--) {
      o[rnd() < 0.05 ? 'k'.repeat(300) : `k${String(Math.floor(rnd() * 10))}`] = value(depth + 1);
    }
    return o;
  };
  return value(0);
}

describe('jsonBoundsProblem', () => {
  it('answers as the iterative walk does, path included (the walk stays for bounds too deep to recurse to)', () => {
    // A depth bound of 900 recurses, one of 1,000,000 walks with the stack; these values are
    // shallow, so both find the same string and size problems, at the same places.
    for (let seed = 1; seed < 400; seed++) {
      const v = randomJson(seed);
      const small = { maxDepth: 1_000_000, maxStringLength: 200, maxBytes: 600 };
      const recursing = jsonBoundsProblem(v, { ...small, maxDepth: 900 });
      const iterative = jsonBoundsProblem(v, small);
      const deep = recursing?.kind === 'depth';
      if (!deep) expect(recursing, `seed ${String(seed)}`).toEqual(iterative);
    }
  });

  it('names the place of a value too deep, of a string and of a key too long', () => {
    const deep: Record<string, unknown> = {};
    let cur = deep;
    for (let i = 0; i < 70; i++) {
      const next: Record<string, unknown> = {};
      cur.a = [next];
      cur = next;
    }
    const problem = jsonBoundsProblem(deep);
    expect(problem?.kind).toBe('depth');
    expect(problem?.path.split('.').slice(0, 4)).toEqual(['a', '0', 'a', '0']);
    expect(problem?.limit).toBe(JSON_LIMITS.maxDepth);
    expect(() => {
      assertJsonDepth(deep);
    }).toThrow(JsonBoundsError);
    const long = { spec: { files: [{ content: 'x'.repeat(JSON_LIMITS.maxStringLength + 1) }] } };
    expect(jsonBoundsProblem(long)).toEqual({
      kind: 'string',
      path: 'spec.files.0.content',
      limit: JSON_LIMITS.maxStringLength,
    });
    const key = { metadata: { labels: { ['k'.repeat(JSON_LIMITS.maxStringLength + 1)]: 'v' } } };
    expect(jsonBoundsProblem(key)?.path).toBe(`metadata.labels.${'k'.repeat(40)}`);
    expect(jsonBoundsProblem({ a: 'x'.repeat(200) }, { ...JSON_LIMITS, maxBytes: 100 })).toEqual({
      kind: 'size',
      path: '',
      limit: 100,
    });
  });
});

describe('jsonClone', () => {
  it('is what a JSON round trip makes of plain data, and a copy', () => {
    for (let seed = 1; seed < 200; seed++) {
      const v = randomJson(seed);
      if (jsonBoundsProblem(v, { ...JSON_LIMITS, maxStringLength: Infinity })) continue;
      const c = jsonClone(v);
      expect(c).toEqual(JSON.parse(JSON.stringify(v)));
      if (typeof v === 'object' && v !== null) expect(c).not.toBe(v);
    }
  });

  it('drops undefined members, writes undefined elements as null, keeps __proto__ an inert own member', () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    const c = jsonClone({ ...{ x: undefined, y: [1, undefined] }, parsed });
    expect(c).toEqual({
      y: [1, null],
      parsed: JSON.parse('{"__proto__":{"polluted":true},"a":1}') as unknown,
    });
    expect(Object.hasOwn(c.parsed, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(c.parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('takes the round trip for what is not plain JSON (a Date, NaN), and refuses a value too deep', () => {
    const when = new Date('2026-01-01T00:00:00Z');
    expect(jsonClone({ when, n: Number.NaN })).toEqual({
      when: '2026-01-01T00:00:00.000Z',
      n: null,
    });
    let deep: unknown = 'leaf';
    for (let i = 0; i < 70; i++) deep = [deep];
    expect(() => jsonClone(deep)).toThrow(JsonBoundsError);
  });
});
