import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { MAX_BODY_BYTES, MAX_DEPTH, checkBodyDepth, tooDeepBody } from '../limits';
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
  if (yamlish && flowDepth(text) > MAX_DEPTH) throw tooDeepBody();
  let body: unknown;
  try {
    body = yamlish ? (parseYaml(text) as unknown) : (JSON.parse(text) as unknown);
  } catch (e) {
    if (yamlish)
      throw badRequest(
        `error converting YAML to JSON: ${e instanceof Error ? e.message : String(e)}`,
      );
    throw badRequest(
      `couldn't get version/kind; json parse error: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  // Every later step walks the body recursively: its depth is bounded here, at the edge.
  checkBodyDepth(body);
  return body;
}

/**
 * The deepest nesting of YAML flow collections (`[[[…]]]`) outside quotes. The YAML parser
 * recurses on them and runs out of stack at a few thousand; this scan is checked first.
 * (Block nesting by indentation is parsed without recursion; its depth is checked after.)
 */
function flowDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '{') {
      depth++;
      if (depth > max) max = depth;
    } else if ((ch === ']' || ch === '}') && depth > 0) depth--;
  }
  return max;
}
