import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { ApiError, statusError, toStatus } from './api-error';

/**
 * GET a JSON document from the API server with the kubeconfig's credentials and TLS settings.
 *
 * Why not client-node's generated APIs for LIST: they run responses through ObjectSerializer,
 * which turns timestamps into Date objects and can drop fields it does not know, while watch
 * events arrive as plain JSON; mixing the two shapes in one cache would make every comparison
 * lie. They also take no AbortSignal, and `stop()` must cancel an in-flight 5,000-object LIST.
 * `applyToHTTPSOptions` is client-node's own way of applying a kubeconfig (CA, client certs,
 * bearer/exec/OIDC tokens, proxies, skipTLSVerify) to a Node request, so auth stays identical to
 * the watch side.
 */
export async function getJson(
  kc: KubeConfig,
  url: URL,
  signal: AbortSignal,
  idleTimeoutMs: number,
): Promise<unknown> {
  const options: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(options);
  signal.throwIfAborted();
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      {
        ...options,
        method: 'GET',
        signal,
        // An idle timeout, not a deadline: a large LIST may take long but never goes silent.
        timeout: idleTimeoutMs,
        headers: { ...headersOf(options), Accept: 'application/json' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = response.statusCode ?? 0;
          try {
            const body = text === '' ? undefined : (JSON.parse(text) as unknown);
            if (status >= 200 && status < 300) resolve(body);
            else reject(statusError(toStatus(body), status));
          } catch {
            reject(new ApiError(status, `HTTP ${status}: response is not JSON`));
          }
        });
      },
    );
    request.on('timeout', () => {
      request.destroy(new Error(`no data from ${url.pathname} for ${idleTimeoutMs} ms`));
    });
    request.on('error', reject);
    request.end();
  });
}

function headersOf(options: https.RequestOptions): Record<string, string | number | string[]> {
  const out: Record<string, string | number | string[]> = {};
  const headers = options.headers;
  if (!headers || Array.isArray(headers)) return out;
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = value;
  return out;
}
