import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Text formats worth compressing. Source maps are left out on purpose: only developer tools
 * fetch them, and brotli at quality 11 on megabytes of maps would double the build time.
 */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;

/** Below this a compressed copy saves less than a TCP packet; the server sends the file as is. */
const MIN_BYTES = 1024;

export interface Precompressed {
  file: string;
  bytes: number;
  br?: number;
  gzip?: number;
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every text file
 * of `dir`, so the BFF serves them by Accept-Encoding without compressing per request
 * (`@fastify/static` `preCompressed`). A copy that would not be smaller is not written: the
 * server then falls back to the plain file.
 */
export async function precompressDir(dir: string): Promise<Precompressed[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name))
    .map((e) => join(e.parentPath, e.name));
  return Promise.all(
    files.map(async (file): Promise<Precompressed> => {
      const data = await readFile(file);
      const row: Precompressed = { file, bytes: data.length };
      if (data.length < MIN_BYTES) return row;
      const [br, gzipped] = await Promise.all([
        brotli(data, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        gz(data, { level: 9 }),
      ]);
      if (br.length < data.length) {
        await writeFile(`${file}.br`, br);
        row.br = br.length;
      }
      if (gzipped.length < data.length) {
        await writeFile(`${file}.gz`, gzipped);
        row.gzip = gzipped.length;
      }
      return row;
    }),
  );
}

/** The Vite side of {@link precompressDir}: runs once the bundle is written. */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'dcs-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const rows = await precompressDir(outDir);
      const sum = (pick: (r: Precompressed) => number) => rows.reduce((n, r) => n + pick(r), 0);
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      console.log(
        `precompressed ${String(rows.filter((r) => r.br !== undefined).length)} files: ` +
          `${kb(sum((r) => r.bytes))} → brotli ${kb(sum((r) => r.br ?? r.bytes))}, ` +
          `gzip ${kb(sum((r) => r.gzip ?? r.bytes))}`,
      );
    },
  };
}
