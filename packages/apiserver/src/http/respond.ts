import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringify } from 'yaml';
import { ApiError, notAcceptable, type StatusBody } from '../status';

export type Encoding = 'json' | 'yaml';

/** What the client asked for: JSON, YAML, a Table, or partial metadata (Accept header). */
export interface Negotiated {
  encoding: Encoding;
  table: boolean;
  partial: 'PartialObjectMetadata' | 'PartialObjectMetadataList' | undefined;
}

export function negotiate(req: IncomingMessage): Negotiated {
  const accept = req.headers.accept ?? '';
  if (!accept) return { encoding: 'json', table: false, partial: undefined };
  const parts = accept.split(',').map((p) => p.trim());
  for (const part of parts) {
    const [type = '', ...params] = part.split(';').map((x) => x.trim());
    const as = params.find((p) => p.startsWith('as='))?.slice(3);
    const g = params.find((p) => p.startsWith('g='))?.slice(2);
    if (
      type === 'application/json' ||
      type === 'application/yaml' ||
      type === '*/*' ||
      type === 'application/*'
    ) {
      const encoding: Encoding = type === 'application/yaml' ? 'yaml' : 'json';
      if (as === 'Table' && g === 'meta.k8s.io')
        return { encoding, table: true, partial: undefined };
      if (
        (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') &&
        g === 'meta.k8s.io'
      ) {
        return { encoding, table: false, partial: as };
      }
      if (as) continue; // a transformation we do not serve; try the next alternative
      return { encoding, table: false, partial: undefined };
    }
  }
  throw notAcceptable(['application/json', 'application/yaml']);
}

/** `Warning: 299 - "<text>"` headers, after any set before (a deprecated version's). */
export function warningHeaders(res: ServerResponse, warnings: readonly string[]): void {
  if (warnings.length === 0) return;
  const before = res.getHeader('Warning');
  const earlier = Array.isArray(before) ? before : typeof before === 'string' ? [before] : [];
  const lines = [...new Set(warnings)].map((w) => `299 - ${JSON.stringify(w)}`);
  res.setHeader('Warning', [...new Set([...earlier, ...lines])]);
}

/** Sends an already-serialized JSON body (or re-encodes it as YAML when asked). */
export function sendJson(
  res: ServerResponse,
  code: number,
  json: string,
  encoding: Encoding = 'json',
  warnings: readonly string[] = [],
  contentType?: string,
): void {
  warningHeaders(res, warnings);
  let body = json;
  let type = contentType ?? 'application/json';
  if (encoding === 'yaml') {
    body = stringify(JSON.parse(json));
    type = 'application/yaml';
  }
  res.writeHead(code, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-cache, private',
  });
  res.end(body);
}

/** Sends a JSON body that is already encoded (YAML re-encodes it). */
export function sendJsonBytes(
  res: ServerResponse,
  code: number,
  body: Buffer,
  encoding: Encoding = 'json',
): void {
  if (encoding === 'yaml') {
    sendJson(res, code, body.toString('utf8'), encoding);
    return;
  }
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Content-Length': body.length,
    'Cache-Control': 'no-cache, private',
  });
  res.end(body);
}

export function sendObject(
  res: ServerResponse,
  code: number,
  value: unknown,
  encoding: Encoding = 'json',
  warnings: readonly string[] = [],
): void {
  sendJson(res, code, JSON.stringify(value), encoding, warnings);
}

export function sendStatus(res: ServerResponse, err: ApiError | StatusBody): void {
  const body = err instanceof ApiError ? err.toStatus() : err;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
  };
  if (body.code === 401) headers['WWW-Authenticate'] = 'Bearer realm="kubernetes"';
  const retry = body.details?.retryAfterSeconds;
  if (retry) headers['Retry-After'] = retry;
  const text = JSON.stringify(body);
  headers['Content-Length'] = Buffer.byteLength(text);
  res.writeHead(body.code, headers);
  res.end(text);
}
