import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('precompressDir', () => {
  it('writes .br and .gz beside text assets that decompress to the original bytes', async () => {
    dir = await mkdtemp(join(tmpdir(), 'web-precompress-'));
    await mkdir(join(dir, 'assets'));
    const js = 'export const greeting = "hello";\n'.repeat(200);
    await writeFile(join(dir, 'assets', 'index-abc123.js'), js);
    await writeFile(join(dir, 'index.html'), `<!doctype html>${'<p>x</p>'.repeat(300)}`);

    await precompressDir(dir);

    const br = await readFile(join(dir, 'assets', 'index-abc123.js.br'));
    const gz = await readFile(join(dir, 'assets', 'index-abc123.js.gz'));
    expect(brotliDecompressSync(br).toString()).toBe(js);
    expect(gunzipSync(gz).toString()).toBe(js);
    expect(br.length).toBeLessThan(js.length / 10);
    expect((await readdir(dir)).sort()).toEqual([
      'assets',
      'index.html',
      'index.html.br',
      'index.html.gz',
    ]);
  });

  it('leaves tiny files, source maps and binary formats alone', async () => {
    dir = await mkdtemp(join(tmpdir(), 'web-precompress-'));
    await writeFile(join(dir, 'tiny.js'), 'export {};');
    await writeFile(join(dir, 'index.js.map'), JSON.stringify({ mappings: 'A'.repeat(5000) }));
    await writeFile(join(dir, 'logo.png'), Buffer.alloc(5000, 1));

    const rows = await precompressDir(dir);

    expect((await readdir(dir)).sort()).toEqual(['index.js.map', 'logo.png', 'tiny.js']);
    expect(rows.map((r) => [r.br, r.gzip])).toEqual([[undefined, undefined]]);
  });
});
