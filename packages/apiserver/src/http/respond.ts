import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringify } from 'yaml';
import { own } from '../json';
import { ApiError, notAcceptable, type StatusBody } from '../status';

export type Encoding = 'json' | 'yaml';

/** What the client asked for: JSON, YAML, a Table, or partial metadata (Accept header). */
export interface Negotiated {
  encoding: Encoding;
  table: boolean;
  partial: 'PartialObjectMetadata' | 'PartialObjectMetadataList' | undefined;
}

/** One clause of an Accept header, as goautoneg's ParseAccept reads it. */
interface AcceptClause {
  type: string;
  subtype: string;
  q: number;
  params: Map<string, string>;
}

/**
 * The clauses of an Accept header, most preferred first (goautoneg.ParseAccept): split at
 * commas, a clause without a `/` (but `*`) dropped, `q` read as a float (a `q` that is not one
 * is 0) and every other parameter kept by name; sorted by q, then a concrete type before `*`,
 * then a concrete subtype before `*`, the header's order otherwise.
 */
export function parseAccept(header: string): AcceptClause[] {
  const clauses: { c: AcceptClause; at: number }[] = [];
  header.split(',').forEach((part, at) => {
    const [range = '', ...rest] = part.trim().split(';');
    const sp = range.split('/');
    const type = (sp[0] ?? '').trim();
    let subtype: string;
    if (sp.length === 1 && type === '*') subtype = '*';
    else if (sp.length === 2) subtype = (sp[1] ?? '').trim();
    else return;
    const c: AcceptClause = { type, subtype, q: 1, params: new Map() };
    for (const param of rest) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      const key = param.slice(0, eq).trim();
      const value = param.slice(eq + 1);
      if (key === 'q') {
        const q = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value) ? Number(value) : 0;
        c.q = q;
      } else c.params.set(key, value.trim());
    }
    clauses.push({ c, at });
  });
  const rank = (c: AcceptClause) => (c.type === '*' ? 2 : 0) + (c.subtype === '*' ? 1 : 0);
  clauses.sort((a, b) => b.c.q - a.c.q || rank(a.c) - rank(b.c) || a.at - b.at);
  return clauses.map((x) => x.c);
}

/** The media types served, in upstream's order of preference for `*\/*`. */
const SERVED: readonly { type: string; subtype: string; encoding: Encoding }[] = [
  { type: 'application', subtype: 'json', encoding: 'json' },
  { type: 'application', subtype: 'yaml', encoding: 'yaml' },
];

/** The transformations served (`as`, `g`, `v`), as an endpoint's AllowsMediaTypeTransform. */
const TRANSFORMS: Readonly<
  Record<string, 'table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList'>
> = {
  Table: 'table',
  PartialObjectMetadata: 'PartialObjectMetadata',
  PartialObjectMetadataList: 'PartialObjectMetadataList',
};

/**
 * What the client asked for, as NegotiateMediaTypeOptions decides it: the clauses in order of
 * preference, each matched against the served media types (`application/json`, then
 * `application/yaml`; a wildcard takes the first), the first whose transformation is served
 * wins: none, or `as=Table` / `as=PartialObjectMetadata[List]` with `g=meta.k8s.io` and `v=v1`.
 * Other parameters (`charset`, `stream=watch`, `pretty`) change nothing. No Accept header is
 * JSON; nothing acceptable is a 406.
 */
export function negotiate(req: IncomingMessage): Negotiated {
  const accept = req.headers.accept ?? '';
  if (!accept) return { encoding: 'json', table: false, partial: undefined };
  for (const clause of parseAccept(accept)) {
    for (const served of SERVED) {
      const matches =
        (clause.type === served.type &&
          (clause.subtype === served.subtype || clause.subtype === '*')) ||
        (clause.type === '*' && clause.subtype === '*');
      if (!matches) continue;
      const as = clause.params.get('as');
      if (as === undefined && !clause.params.has('g') && !clause.params.has('v'))
        return { encoding: served.encoding, table: false, partial: undefined };
      const transform = as === undefined ? undefined : own(TRANSFORMS, as);
      if (!transform || clause.params.get('g') !== 'meta.k8s.io' || clause.params.get('v') !== 'v1')
        continue; // a transformation not served: the next clause may be
      return transform === 'table'
        ? { encoding: served.encoding, table: true, partial: undefined }
        : { encoding: served.encoding, table: false, partial: transform };
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
