import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../http/errors';

/** The built SPA (apps/web/dist) with history-API fallback to index.html; API 404s stay JSON. */
export const DEFAULT_STATIC_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../web/dist',
);

export async function registerStatic(
  app: FastifyInstance,
  dir = DEFAULT_STATIC_DIR,
): Promise<void> {
  const hasSpa = existsSync(join(dir, 'index.html'));
  if (hasSpa) {
    await app.register(fastifyStatic, { root: dir, wildcard: false, index: ['index.html'] });
  } else {
    app.log.warn(
      { dir },
      'no built web app found; serving the API only (run `pnpm --filter @dcs/web build`)',
    );
  }
  app.setNotFoundHandler((request, reply) => {
    const api = request.url.startsWith('/api/') || request.url === '/api';
    if (!api && hasSpa && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    throw notFound(`no route ${request.method} ${request.url.split('?')[0] ?? ''}`);
  });
}
