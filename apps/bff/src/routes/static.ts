import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../http/errors';

/** The built SPA (apps/web/dist) with history-API fallback to index.html; API 404s stay JSON. */
export const DEFAULT_STATIC_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../web/dist',
);

/** Vite names every file under `assets/` after a hash of its content: a new build, a new name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html first) may change with any deploy: revalidate by ETag each time. */
export const REVALIDATE = 'no-cache';

/** The Cache-Control of a file of the built app, by its path relative to the app's folder. */
export function cacheControlFor(relativePath: string): string {
  return relativePath.split(/[\\/]/)[0] === 'assets' ? IMMUTABLE : REVALIDATE;
}

/**
 * Whether a GET the static files did not answer gets the SPA's index.html (the app's router then
 * shows the page, or its own "not found"). Only a navigation does: browsers send
 * `Accept: text/html` for a document and never for a script, stylesheet or image, so a missing
 * `/assets/x.js` or `/favicon.ico` is a 404 rather than HTML under a script's name (which the
 * browser reports as a MIME error, and a cache could keep for a year). Path shape cannot decide
 * it: Kubernetes names may contain dots (`/clusters/ns/pool-1.2`). `/assets/` never holds a page.
 */
export function isSpaNavigation(method: string, url: string, accept: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const path = url.split('?')[0] ?? '';
  if (path === '/api' || path.startsWith('/api/') || path.startsWith('/assets/')) return false;
  return /(^|[\s,])text\/html($|[\s,;])/i.test(accept ?? '');
}

/**
 * Serves the built app like a production web server: the `.br`/`.gz` files written by the web
 * build (apps/web/build/precompress.ts) by Accept-Encoding with `Vary: Accept-Encoding`, hashed
 * assets cached for a year, index.html revalidated (ETag → 304), content types by extension,
 * 404 for a missing file. The file list is read once at start (`wildcard: false`): a new build
 * needs a restart, and an unknown path costs no file-system lookup.
 */
export async function registerStatic(
  app: FastifyInstance,
  dir = DEFAULT_STATIC_DIR,
): Promise<void> {
  const hasSpa = existsSync(join(dir, 'index.html'));
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: dir,
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      // The compressed copies are chosen by Accept-Encoding, never requested by name.
      globIgnore: ['**/*.br', '**/*.gz'],
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header('cache-control', cacheControlFor(relative(dir, path)));
      },
    });
  } else {
    app.log.warn(
      { dir },
      'no built web app found; serving the API only (run `pnpm --filter @dcs/web build`)',
    );
  }
  app.setNotFoundHandler((request, reply) => {
    if (hasSpa && isSpaNavigation(request.method, request.url, request.headers.accept)) {
      // The answer to this URL depends on Accept (the app for a page, 404 for anything else).
      reply.header('vary', 'accept');
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    throw notFound(`no route ${request.method} ${request.url.split('?')[0] ?? ''}`);
  });
}
