import http from 'node:http';
import https from 'node:https';
import type { KubeConfigLike } from './kubeconfig';

export interface RequestSettings {
  /** Aborts the request at any point, before or after the response headers. */
  readonly signal: AbortSignal;
  /** Socket inactivity timeout: before the headers it is a connect timeout, after, an idle one. */
  readonly idleTimeoutMs: number;
}

/**
 * Starts a GET to the API server with the kubeconfig's credentials and TLS settings.
 *
 * `applyToHTTPSOptions` is client-node's own way of applying a kubeconfig to a Node request (CA,
 * client certificates, bearer/exec/OIDC tokens, basic auth, impersonation, proxies,
 * skipTLSVerify): it runs the same authenticators as client-node's API clients, and it is called
 * per request so that exec/OIDC tokens are refreshed on every reconnect.
 */
export interface RequestHandlers {
  readonly onResponse: (response: http.IncomingMessage) => void;
  /** Any failure of the request or its response, including the abort and the idle timeout. */
  readonly onError: (error: Error) => void;
  /** The socket was idle for `idleTimeoutMs`; the request is destroyed right after. */
  readonly onTimeout?: () => void;
  /** The request is finished or destroyed: no socket of it is left. */
  readonly onClose?: () => void;
}

export async function startGet(
  kc: KubeConfigLike,
  url: URL,
  settings: RequestSettings,
  handlers: RequestHandlers,
): Promise<void> {
  const options: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(options);
  settings.signal.throwIfAborted();
  const requestOptions: https.RequestOptions = {
    ...options,
    method: 'GET',
    signal: settings.signal,
    timeout: settings.idleTimeoutMs,
    headers: { ...headersOf(options), Accept: 'application/json' },
  };
  const request =
    url.protocol === 'https:'
      ? https.request(url, requestOptions, handlers.onResponse)
      : http.request(url, requestOptions, handlers.onResponse);
  // Attached before anything can happen, so no error goes unheard.
  request.on('error', handlers.onError);
  request.on('timeout', () => {
    handlers.onTimeout?.();
    request.destroy(new Error(`no data from ${url.pathname} for ${settings.idleTimeoutMs} ms`));
  });
  request.on('close', () => handlers.onClose?.());
  request.end();
}

/**
 * Reads a response body as text. `limit` is for error bodies, which are only read for their
 * Status: past it the rest is drained and dropped. A LIST page is read whole (no limit): 500
 * real objects easily weigh megabytes, and a truncated page would never parse.
 */
export function readText(response: http.IncomingMessage, limit = Infinity): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    response.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    response.on('error', reject);
  });
}

function headersOf(options: https.RequestOptions): Record<string, string | number | string[]> {
  const out: Record<string, string | number | string[]> = {};
  const headers = options.headers;
  if (!headers || Array.isArray(headers)) return out;
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = value;
  return out;
}
