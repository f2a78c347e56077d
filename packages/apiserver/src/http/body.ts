import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { ApiError, badRequest, unsupportedMediaType } from '../status';

/** kube-apiserver's limit on request bodies. */
const MAX_BODY = 3 * 1024 * 1024;

export function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(
          new ApiError(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728'),
        );
        req.destroy();
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
  try {
    return yamlish ? (parseYaml(text) as unknown) : (JSON.parse(text) as unknown);
  } catch (e) {
    if (yamlish)
      throw badRequest(
        `error converting YAML to JSON: ${e instanceof Error ? e.message : String(e)}`,
      );
    throw badRequest(
      `couldn't get version/kind; json parse error: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
