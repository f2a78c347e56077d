import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControlFor, isSpaNavigation } from '../src/routes/static';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';

/** What a browser sends for a page, and for a script or an image. */
const NAVIGATE = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const SUBRESOURCE = '*/*';

const INDEX = `<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const SCRIPT = `export const answer = 42;\n${'console.log("a chunk of the app");\n'.repeat(200)}`;

/** A built app as `vite build` leaves it: hashed assets with .br/.gz beside them. */
async function writeBuiltApp(dir: string): Promise<void> {
  await mkdir(join(dir, 'assets'));
  const files: [string, string][] = [
    ['index.html', INDEX],
    ['assets/index-Ab12Cd34.js', SCRIPT],
    ['assets/index-Ef56Gh78.css', `body{margin:0}${'.a{color:red}'.repeat(200)}`],
  ];
  for (const [name, text] of files) {
    await writeFile(join(dir, name), text);
    await writeFile(join(dir, `${name}.br`), brotliCompressSync(text));
    await writeFile(join(dir, `${name}.gz`), gzipSync(text));
  }
  await writeFile(join(dir, 'robots.txt'), 'User-agent: *\n');
  // The web build's report of its budgets (apps/web/build/bundle-budget.ts), for `pnpm bench`.
  await mkdir(join(dir, '.vite'));
  await writeFile(join(dir, '.vite', 'bundle-budget.json'), '{"firstLoadKB":180}\n');
}

describe('static hosting of the built app (issue 14: served like a production web app)', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bff-static-'));
    await writeBuiltApp(dir);
    t = await startTestCluster(false);
    app = await buildTestApp(t, { env: { STATIC_DIR: dir } });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves a hashed script brotli-compressed when the browser accepts br, cached for a year', async () => {
    const res = await app.inject({
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd', accept: SUBRESOURCE },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('serves gzip to a client without brotli, and the plain file to one without either', async () => {
    const gz = await app.inject({
      url: '/assets/index-Ef56Gh78.css',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(gunzipSync(gz.rawPayload).toString()).toMatch(/^body\{margin:0\}/);

    const plain = await app.inject({
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    // The plain answer also varies by Accept-Encoding: a shared cache must not hand it to a
    // browser that accepts brotli.
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
  });

  it('serves index.html no-cache, with an ETag that answers 304', async () => {
    const first = await app.inject({
      url: '/',
      headers: { accept: NAVIGATE, 'accept-encoding': 'br' },
    });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['content-encoding']).toBe('br');
    const etag = first.headers.etag;
    expect(etag).toBeTypeOf('string');

    const again = await app.inject({
      url: '/',
      headers: { accept: NAVIGATE, 'accept-encoding': 'br', 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers a deep link of the app (a page, even with dots in a name) with index.html', async () => {
    for (const url of ['/clusters/ns/name', '/clusters/ns/demo/pools/pool-1.2?tab=nodes']) {
      const res = await app.inject({
        url,
        headers: { accept: NAVIGATE, 'accept-encoding': 'gzip' },
      });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(String(res.headers.vary), url).toMatch(
        /accept\b.*accept-encoding|accept-encoding.*accept\b/i,
      );
      expect(gunzipSync(res.rawPayload).toString(), url).toBe(INDEX);
    }
  });

  it('answers 404 for a missing asset or favicon instead of index.html under their names', async () => {
    for (const [url, accept] of [
      ['/assets/x.js', SUBRESOURCE],
      ['/assets/x.js', NAVIGATE],
      ['/favicon.ico', 'image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5'],
      ['/assets/index-Ab12Cd34.js.br', SUBRESOURCE],
      // The build's own files (its budget report) are not part of the app.
      ['/.vite/bundle-budget.json', SUBRESOURCE],
    ] as const) {
      const res = await app.inject({ url, headers: { accept } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'NotFound' });
    }
  });

  it('keeps unknown API paths a JSON 404, even for a navigation', async () => {
    const res = await app.inject({ url: '/api/v1/nope', headers: { accept: NAVIGATE } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NotFound' });
  });

  it('serves other root files uncompressed when they are small, revalidated', async () => {
    const res = await app.inject({ url: '/robots.txt', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});

describe('static serving decisions', () => {
  it('caches only hashed assets for a year', () => {
    expect(cacheControlFor('assets/index-Ab12Cd34.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('assets/index-Ab12Cd34.js.br')).toBe(
      'public, max-age=31536000, immutable',
    );
    expect(cacheControlFor('index.html')).toBe('no-cache');
    expect(cacheControlFor('assetsnot/x.js')).toBe('no-cache');
  });

  it('falls back to the app only for page navigations outside /api and /assets', () => {
    expect(isSpaNavigation('GET', '/clusters/a/b', NAVIGATE)).toBe(true);
    expect(isSpaNavigation('HEAD', '/clusters/a/b', 'text/html')).toBe(true);
    expect(isSpaNavigation('POST', '/clusters/a/b', NAVIGATE)).toBe(false);
    expect(isSpaNavigation('GET', '/clusters/a/b', SUBRESOURCE)).toBe(false);
    expect(isSpaNavigation('GET', '/clusters/a/b', undefined)).toBe(false);
    expect(isSpaNavigation('GET', '/clusters/a/b', 'application/xhtml+html')).toBe(false);
    expect(isSpaNavigation('GET', '/api', NAVIGATE)).toBe(false);
    expect(isSpaNavigation('GET', '/api/v1/x', NAVIGATE)).toBe(false);
    expect(isSpaNavigation('GET', '/apix', NAVIGATE)).toBe(true);
    expect(isSpaNavigation('GET', '/assets/gone.js', NAVIGATE)).toBe(false);
  });
});
