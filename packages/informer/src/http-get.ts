import type { IncomingMessage } from 'node:http';
import type { KubeConfigLike } from './kubeconfig';
import { ApiError, statusError, toStatus } from './api-error';
import { readText, type RequestSettings, startGet } from './transport';

/**
 * GETs a JSON document (a LIST page). Why not client-node's generated APIs: they run responses
 * through ObjectSerializer, which turns timestamps into Date objects and may drop fields it does
 * not know, while watch events are plain JSON, and mixing both shapes in one cache would make
 * every comparison lie; they also take no AbortSignal, and `stop()` must cancel an in-flight
 * 5,000-object LIST.
 */
export function getJson(kc: KubeConfigLike, url: URL, settings: RequestSettings): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onResponse = (response: IncomingMessage): void => {
      const status = response.statusCode ?? 0;
      readText(response).then((text) => {
        let body: unknown;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          reject(new ApiError(status, `HTTP ${status}: the response is not JSON`));
          return;
        }
        if (status >= 200 && status < 300) resolve(body);
        else reject(statusError(toStatus(body), status));
      }, reject);
    };
    // The idle timeout is not a deadline: a large LIST may take long but never goes silent.
    startGet(kc, url, settings, { onResponse, onError: reject }).catch(reject);
  });
}
