import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/harness';

/**
 * Issue 28: the API's JSON answers are compressed by Accept-Encoding (br, else gzip; a first
 * visit on a slow link waited for the Node Pools view's uncompressed JSON); the session's answer,
 * which holds the CSRF token, never is; small answers are sent as they are.
 */
describe('compressed JSON answers (issue 28)', () => {
  const h = useTestApp({ seed: { workers: 20 } });
  const POOLS = '/api/v1/clusters/cpaas-system/demo/nodepools';

  it('sends a view br-compressed to a client that accepts br, gzip to one that accepts only gzip, plain to one that accepts neither', async () => {
    const plain = await h.s.request('GET', POOLS);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await h.s.request('GET', POOLS, undefined, {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    const unpacked = brotliDecompressSync(br.rawPayload).toString();
    expect(JSON.parse(unpacked)).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);

    const gzip = await h.s.request('GET', POOLS, undefined, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
  });

  it('never compresses the session’s answer (its CSRF token)', async () => {
    const res = await h.s.request('GET', '/api/v1/session', undefined, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json<{ csrfToken: string }>().csrfToken).not.toBe('');
  });
});
