import { requestFieldRule } from '@dcs/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { TestSession } from './support/session';

/**
 * Issue 12: a 400 of a request schema names the domain rule that owns the refused field
 * (domain's `requestFieldRule`), and the field. Every mutating route of `/api/openapi.json`,
 * every leaf field of its body (each branch of a union, with its discriminators set): the field
 * gets a value of the wrong type, and the answer must be a 400 whose detail at that path carries
 * the field's rule. A route or field added later is covered without touching this test.
 */

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

interface Leaf {
  path: (string | number)[];
  /** Discriminator values of the union branches on the way (path → value). */
  fixed: { path: (string | number)[]; value: unknown }[];
  types: string[];
}

const PARAMS: Record<string, string> = {
  namespace: 'cpaas-system',
  cluster: 'demo',
  pool: 'demo-md-0',
  name: 'demo-md-0-ippool',
};

/** A discriminator's one value (`const`, or an enum of one). */
const constOf = (p: JsonSchema): unknown =>
  p.const ?? (p.enum?.length === 1 ? p.enum[0] : undefined);

function leaves(
  schema: JsonSchema,
  defs: Record<string, JsonSchema>,
  path: (string | number)[] = [],
  fixed: Leaf['fixed'] = [],
  depth = 0,
): Leaf[] {
  if (depth > 12) return [];
  if (schema.$ref) {
    const target = defs[schema.$ref.split('/').at(-1) ?? ''];
    return target ? leaves(target, defs, path, fixed, depth + 1) : [];
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    // A union of scalars (maxSurge: number | string) is one leaf; of objects, each branch.
    const objects = branches.filter(
      (b) => (b.properties !== undefined || b.$ref !== undefined || b.anyOf) ?? b.oneOf,
    );
    if (objects.length === 0)
      return [{ path, fixed, types: branches.flatMap((b) => [b.type ?? []].flat()) }];
    return objects.flatMap((b) => leaves(b, defs, path, fixed, depth + 1));
  }
  if (schema.allOf) return schema.allOf.flatMap((b) => leaves(b, defs, path, fixed, depth + 1));
  if (schema.properties) {
    const consts = Object.entries(schema.properties).filter(([, p]) => constOf(p) !== undefined);
    const here = [...fixed, ...consts.map(([k, p]) => ({ path: [...path, k], value: constOf(p) }))];
    return Object.entries(schema.properties)
      .filter(([, p]) => constOf(p) === undefined)
      .flatMap(([k, p]) => leaves(p, defs, [...path, k], here, depth + 1));
  }
  if (schema.items) return leaves(schema.items, defs, [...path, 0], fixed, depth + 1);
  if (schema.type === 'object') return [];
  return [{ path, fixed, types: [schema.type ?? []].flat() }];
}

function setAt(body: Record<string, unknown>, path: (string | number)[], value: unknown): void {
  let cur: Record<string | number, unknown> = body;
  path.forEach((p, i) => {
    if (i === path.length - 1) {
      cur[p] = value;
      return;
    }
    const next = path[i + 1];
    cur[p] ??= typeof next === 'number' ? [] : {};
    cur = cur[p] as Record<string | number, unknown>;
  });
}

/** A value no leaf of that type accepts. */
const wrong = (types: string[]): unknown =>
  types.includes('boolean') && !types.includes('string') ? 'not-a-boolean' : { wrong: true };

describe('schema 400s name the domain rule of the field (issue 12)', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  let s: TestSession;
  let doc: {
    paths: Record<
      string,
      Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>
    >;
    components?: { schemas?: Record<string, JsonSchema> };
  };

  beforeAll(async () => {
    t = await startTestCluster();
    app = await buildTestApp(t, { env: { MUTATION_RATE_PER_MINUTE: '100000' } });
    s = new TestSession(app);
    await s.start();
    doc = (await app.inject({ url: '/api/openapi.json', headers: { host: 'localhost' } })).json();
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('R-REQUEST (issue 11): a misspelt field nested in an IP pool entry is a 400 at its full path, on Preview and Apply; a __proto__ key is a 400 too', async () => {
    const entry = {
      ip: '10.0.9.10',
      mask: '24',
      gateway: '10.0.9.1',
      additionNic: [{ dvSwitchName: 'dvs-2', portGroupName: 'pg-2', gatway: '192.168.0.1' }],
    };
    for (const dry of ['?dryRun=true', '']) {
      const res = await s.request('POST', `/api/v1/namespaces/cpaas-system/ippools${dry}`, {
        name: 'typo-pool',
        entries: [entry],
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ details: { rule: string; path: string }[] }>().details).toEqual([
        expect.objectContaining({ rule: 'R-REQUEST', path: 'entries.0.additionNic.0.gatway' }),
      ]);
    }
    // JSON text, so that the key is an own `__proto__` member (Fastify refuses it: onProtoPoisoning).
    const poisoned = await s.request(
      'POST',
      '/api/v1/namespaces/cpaas-system/ippools?dryRun=true',
      '{"name":"p","entries":[{"ip":"10.0.9.11","mask":"24","gateway":"10.0.9.1","__proto__":{"x":1}}]}',
      { headers: { 'content-type': 'application/json' } },
    );
    expect(poisoned.statusCode, poisoned.body).toBe(400);
  });

  it('every field of every mutating route: a wrong type is a 400 naming the field and its rule', async () => {
    const defs = doc.components?.schemas ?? {};
    const seen = new Map<string, number>();
    const failures: string[] = [];
    let checked = 0;
    for (const [template, ops] of Object.entries(doc.paths)) {
      if (template === '/api/v1/session') continue; // sign-in: a token, no domain field
      const url = template.replace(/\{(\w+)\}/g, (_, k: string) => PARAMS[k] ?? k);
      for (const [method, op] of Object.entries(ops)) {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        for (const leaf of leaves(schema, defs)) {
          const body: Record<string, unknown> = {};
          for (const f of leaf.fixed) setAt(body, f.path, f.value);
          setAt(body, leaf.path, wrong(leaf.types));
          const res = await s.request(
            method.toUpperCase() as 'POST' | 'PATCH' | 'DELETE',
            `${url}?dryRun=true`,
            body,
          );
          const path = leaf.path.join('.');
          const expected = requestFieldRule(leaf.path);
          checked++;
          const details =
            res.statusCode === 400
              ? res.json<{ details: { rule: string; path: string }[] }>().details
              : [];
          const at = details.find((d) => d.path === path);
          if (res.statusCode !== 400 || at?.rule !== expected) {
            failures.push(
              `${method.toUpperCase()} ${template} ${path}: ${String(res.statusCode)} ${JSON.stringify(at ?? details.map((d) => d.path))}, want ${expected}`,
            );
          }
          seen.set(expected, (seen.get(expected) ?? 0) + 1);
        }
      }
    }
    console.log(`schema rules: ${String(checked)} fields`, Object.fromEntries(seen));
    expect(failures).toEqual([]);
    // The rules that own request fields are all reached through some route.
    for (const rule of [
      'R-MD-1',
      'R-MD-2',
      'R-MD-4',
      'R-MD-5',
      'R-MD-6',
      'R-MD-7',
      'R-POOL-3',
      'R-POOL-4',
      'R-POOL-6',
      'R-NIC-1',
      'R-DISK-1',
      'R-DISK-3',
      'R-TPL-3',
      'R-TPL-4',
      'R-BOOT-3',
    ])
      expect(seen.get(rule) ?? 0, rule).toBeGreaterThan(0);
  }, 120_000);
});
