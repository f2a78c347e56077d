import type { IncomingMessage } from 'node:http';
import { load as loadYaml } from 'js-yaml';
import {
  MAX_BODY_BYTES,
  MAX_DEPTH,
  MAX_YAML_ALIASES,
  checkBodyDepth,
  tooDeepBody,
} from '../limits';
import { ApiError, badRequest, unsupportedMediaType } from '../status';

/** What is read and thrown away of a body past the limit before the connection is cut. */
const MAX_DISCARD = 8 * MAX_BODY_BYTES;

function tooLarge(): ApiError {
  return new ApiError(
    413,
    'RequestEntityTooLarge',
    `Request entity too large: limit is ${MAX_BODY_BYTES}`,
  );
}

/**
 * The body, at most MAX_BODY_BYTES (kube-apiserver's limit). A larger one is refused with a 413
 * Status: a declared Content-Length over the limit at once, otherwise once the limit is passed.
 * The rest of the body is read and dropped (up to MAX_DISCARD), so that the client, still
 * sending, gets the answer instead of a reset connection (the server closes the connection after
 * a 413).
 */
export function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const refuse = () => {
      let discarded = 0;
      req.removeAllListeners('data');
      req.on('data', (c: Buffer) => {
        discarded += c.length;
        if (discarded > MAX_DISCARD) req.destroy();
      });
      reject(tooLarge());
    };
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      refuse();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        chunks.length = 0;
        refuse();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Decodes a JSON or YAML body; anything else is a 415 as the real server answers. */
export function decodeBody(raw: Buffer, type: string, accepted: readonly string[]): unknown {
  const text = raw.toString('utf8');
  if (!accepted.includes(type)) throw unsupportedMediaType(type, accepted);
  if (!text.trim()) throw badRequest("Object 'Kind' is missing in ''");
  const yamlish = type === 'application/yaml' || type === 'application/apply-patch+yaml';
  const body = yamlish ? decodeYaml(text) : decodeJson(text);
  // Every later step walks the body recursively: its depth is bounded here, at the edge.
  checkBodyDepth(body);
  return body;
}

function decodeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw badRequest(`couldn't get version/kind; json parse error: ${messageOf(e)}`);
  }
}

/**
 * One YAML document (YAML 1.2 core schema: no `<<` merge, no timestamps, as sigs.k8s.io/yaml
 * turns it into JSON), decoded in time linear in its length: js-yaml's loader, made for untrusted
 * input, bounds nesting and aliases while it parses (issue 25, item 7: the previous decoder
 * checked key uniqueness in time quadratic in a map's keys). What the aliases expand to is bounded
 * as kube-apiserver's YAML decoder bounds it (`checkAliasing`).
 */
function decodeYaml(text: string): unknown {
  let body: unknown;
  try {
    // js-yaml allows two levels fewer than its maxDepth; checkBodyDepth decides at MAX_DEPTH exactly.
    body = loadYaml(text, { maxDepth: MAX_DEPTH + 2, maxAliases: MAX_YAML_ALIASES });
  } catch (e) {
    if (messageOf(e).startsWith('nesting exceeded maxDepth')) throw tooDeepBody();
    throw badRequest(`error converting YAML to JSON: ${messageOf(e)}`);
  }
  checkAliasing(body);
  return body;
}

/**
 * go-yaml v2 (kube-apiserver's YAML decoder, since CVE-2019-11253) refuses a document in which
 * too much of what is decoded comes from aliases: up to 99% for documents of up to 400,000
 * nodes, falling to 10% at 4,000,000. The decoded value shares each aliased collection, so its
 * expanded size is counted once per distinct collection (linear in the text, however far a
 * billion laughs would expand); nesting past MAX_DEPTH through aliases is refused on the way.
 */
function checkAliasing(body: unknown): void {
  const expandedOf = new Map<object, number>();
  let distinct = 0;
  const count = (v: unknown, depth: number): number => {
    if (typeof v !== 'object' || v === null) return 1;
    const known = expandedOf.get(v);
    if (known !== undefined) return known;
    if (depth > MAX_DEPTH) throw tooDeepBody();
    const children = Array.isArray(v) ? (v as unknown[]) : Object.values(v);
    let expanded = 1;
    distinct += 1;
    for (const child of children) {
      if (typeof child !== 'object' || child === null) distinct += 1;
      expanded += count(child, depth + 1);
    }
    expandedOf.set(v, expanded);
    return expanded;
  };
  const expanded = count(body, 1);
  const fromAliases = expanded - distinct;
  if (
    fromAliases > 100 &&
    expanded > 1000 &&
    fromAliases / expanded > allowedAliasRatio(expanded)
  ) {
    throw badRequest('error converting YAML to JSON: yaml: document contains excessive aliasing');
  }
}

/** go-yaml v2's `allowedAliasRatio`: the share of decoded nodes aliases may account for. */
function allowedAliasRatio(decoded: number): number {
  const low = 400_000;
  const high = 4_000_000;
  if (decoded <= low) return 0.99;
  if (decoded >= high) return 0.1;
  return 0.99 - (0.89 * (decoded - low)) / (high - low);
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
