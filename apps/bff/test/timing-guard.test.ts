import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { BODIES, PARAMS } from './support/route-bodies';
import { TestSession } from './support/session';

/**
 * The timing guard (issue 25, "Done when"): no single request of any route, at the largest size
 * the limits allow, holds the process for more than 100 ms. For every route that takes a body
 * (test/support/route-bodies.ts), each of its arrays is grown to the body limit (its first
 * element repeated) and each of its strings made as long as the limit allows, and the request
 * is sent as the signed-in operator with dryRun=true (the planners run, the embedded API server
 * is asked for its dry-run verdict). What is measured is the process's CPU time over the request
 * (the BFF and the embedded cluster share it; CPU, not wall time, since the machine is shared),
 * best of two. Before issue 25's item 6 an IP-pool edit of 3,000 entries took 21 s.
 */

const GUARD_MS = 100;
const BODY_LIMIT = 1024 * 1024;

/** Every path to an array or a string in `v`. */
function growable(v: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(v)) return [prefix, ...v.flatMap((x, i) => growable(x, [...prefix, i]))];
  if (typeof v === 'object' && v !== null)
    return Object.entries(v).flatMap(([k, x]) => growable(x, [...prefix, k]));
  return typeof v === 'string' ? [prefix] : [];
}

/** `base` with the array or string at `path` grown until the body is just under the limit. */
function grown(base: unknown, path: (string | number)[]): string {
  const copy = JSON.parse(JSON.stringify(base)) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path.at(-1) ?? '';
  const marker = '\u0000GROW\u0000';
  const value = parent[last];
  parent[last] = marker;
  const text = JSON.stringify(copy);
  const room = BODY_LIMIT - text.length - 64;
  let filler: string;
  if (Array.isArray(value)) {
    const item = JSON.stringify(value[0] ?? 'x');
    filler = `[${new Array<string>(Math.max(1, Math.floor(room / (item.length + 1)))).fill(item).join(',')}]`;
  } else filler = JSON.stringify('a'.repeat(Math.max(1, room)));
  return text.replace(JSON.stringify(marker), filler);
}

describe('every route at the body limit', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  let s: TestSession;
  beforeAll(async () => {
    t = await startTestCluster();
    app = await buildTestApp(t, {
      mode: 'token',
      env: { SIGNIN_RATE_PER_MINUTE: '1000000', MUTATION_RATE_PER_MINUTE: '1000000' },
    });
    s = new TestSession(app);
    expect((await s.signIn(t.cluster.operatorToken)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  const cases = Object.entries(BODIES).flatMap(([route, body]) =>
    growable(body).map((path) => ({ route, body, path })),
  );
  for (const { route, body, path } of cases) {
    it(`${route}: ${path.join('.') || '(the body)'} grown to the limit`, async () => {
      const [method = 'POST', template = ''] = route.split(' ');
      const url = `${template.replace(/\{(\w+)\}/g, (_m, p: string) => PARAMS[p] ?? p)}?dryRun=true`;
      const payload = grown(body, path);
      expect(payload.length).toBeLessThanOrEqual(BODY_LIMIT);
      let best = Number.POSITIVE_INFINITY;
      let status = 0;
      for (let run = 0; run < 2; run++) {
        const before = process.cpuUsage();
        const res = await app.inject({
          method: method as 'POST',
          url,
          headers: {
            host: 'localhost:80',
            origin: 'http://localhost:80',
            'x-csrf-token': s.csrf,
            'content-type': 'application/json',
          },
          cookies: Object.fromEntries(s.cookies),
          payload,
        });
        const used = process.cpuUsage(before);
        best = Math.min(best, (used.user + used.system) / 1000);
        status = res.statusCode;
        expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
      }
      console.log(`${route} ${path.join('.')}: ${String(status)} in ${best.toFixed(1)} ms of CPU`);
      expect(best).toBeLessThan(GUARD_MS);
    }, 60_000);
  }
});
