import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  aggregatedContentType,
  aggregatedDiscovery,
  aggregatedVersion,
  apiGroupDoc,
  apiGroupList,
  apiResourceList,
  apiVersions,
} from '../discovery';
import type { OpenApi } from '../openapi';
import type { Registry } from '../registry';
import { methodNotAllowed, notAcceptable, notFoundPath } from '../status';
import { sendJson, sendObject } from './respond';

export const VERSION_INFO = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2025-01-01T00:00:00Z',
  goVersion: 'go1.23.4',
  compiler: 'gc',
  platform: 'linux/amd64',
};

export const PUBLIC_PATHS = new Set(['/healthz', '/livez', '/readyz']);

/** Discovery, OpenAPI, version and health. */
export function handleNonResource(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  registry: Registry,
  openapi: OpenApi,
  serverAddress: string,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed();
  const accept = req.headers.accept ?? '';
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (
    PUBLIC_PATHS.has(clean) ||
    clean.startsWith('/healthz/') ||
    clean.startsWith('/livez/') ||
    clean.startsWith('/readyz/')
  ) {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': 2 });
    res.end('ok');
    return;
  }
  if (clean === '/version') {
    sendObject(res, 200, VERSION_INFO);
    return;
  }
  if (clean === '/api' || clean === '/apis') {
    const v = aggregatedVersion(accept);
    if (v) {
      const body = JSON.stringify(aggregatedDiscovery(registry, clean === '/api', v));
      sendJson(res, 200, body, 'json', [], aggregatedContentType(v));
      return;
    }
    sendObject(res, 200, clean === '/api' ? apiVersions(serverAddress) : apiGroupList(registry));
    return;
  }
  const parts = clean.split('/').filter(Boolean);
  if (parts[0] === 'api' && parts.length === 2) {
    const doc = apiResourceList(registry, '', parts[1] ?? '');
    if (!doc) throw notFoundPath();
    sendObject(res, 200, doc);
    return;
  }
  if (parts[0] === 'apis' && parts.length === 2) {
    const doc = apiGroupDoc(registry, parts[1] ?? '');
    if (!doc) throw notFoundPath();
    sendObject(res, 200, doc);
    return;
  }
  if (parts[0] === 'apis' && parts.length === 3) {
    const doc = apiResourceList(registry, parts[1] ?? '', parts[2] ?? '');
    if (!doc) throw notFoundPath();
    sendObject(res, 200, doc);
    return;
  }
  if (clean === '/openapi/v2' || clean === '/swagger.json') {
    // Protobuf (what client-go asks for first) is not served; JSON is when the client takes it.
    if (accept && !/application\/json|\*\/\*/.test(accept))
      throw notAcceptable(['application/json']);
    sendJson(res, 200, openapi.v2Body());
    return;
  }
  if (clean === '/openapi/v3') {
    sendJson(res, 200, openapi.v3IndexBody());
    return;
  }
  if (clean.startsWith('/openapi/v3/')) {
    const body = openapi.v3Body(clean.slice('/openapi/v3/'.length));
    if (!body) throw notFoundPath();
    res.setHeader('Cache-Control', 'public, immutable');
    res.setHeader('Content-Type', 'application/json');
    res.writeHead(200, { 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  throw notFoundPath();
}
