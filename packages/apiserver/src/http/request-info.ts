/**
 * What a URL addresses, as k8s.io/apiserver's RequestInfoFactory reads it: a resource request
 * (`/api/v1/namespaces/ns/configmaps/x`, `/apis/g/v/plural/name/status`) or a non-resource
 * path (discovery, OpenAPI, health).
 */
import { badRequest } from '../status';
import { isWatchQuery } from './query';

export interface ResourceRequest {
  isResource: true;
  group: string;
  version: string;
  namespace: string;
  resource: string;
  name: string;
  subresource: string;
  verb: string;
  path: string;
}

export interface NonResourceRequest {
  isResource: false;
  path: string;
  verb: string;
}

export type RequestInfo = ResourceRequest | NonResourceRequest;

/** A path segment with its %-escapes decoded; a malformed escape is the client's fault (400). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`invalid URL escape in path segment ${JSON.stringify(segment)}`);
  }
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

export function requestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const verbOf = (m: string) => (m === 'GET' || m === 'HEAD' ? 'get' : m.toLowerCase());
  const parts = path.split('/').filter(Boolean).map(decodeSegment);
  let rest: string[];
  let group: string;
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1] ?? '';
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1] ?? '';
    version = parts[2] ?? '';
    rest = parts.slice(3);
  } else {
    return { isResource: false, path, verb: verbOf(method) };
  }
  let watchPrefix = false;
  if (rest[0] === 'watch') {
    watchPrefix = true;
    rest = rest.slice(1);
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1] ?? '';
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2] ?? '')) rest = rest.slice(2);
  }
  const resource = rest[0] ?? '';
  const name = rest[1] ?? '';
  const subresource = rest[2] ?? '';
  if (!resource || rest.length > 3) return { isResource: false, path, verb: verbOf(method) };
  const isWatch = watchPrefix || isWatchQuery(query);
  let verb: string;
  switch (method) {
    case 'GET':
    case 'HEAD':
      // A named GET is a get even with `?watch`: only the deprecated `/watch/` prefix watches one
      // object (upstream routes GET on an item to the get handler).
      verb = name ? (watchPrefix ? 'watch' : 'get') : isWatch ? 'watch' : 'list';
      break;
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = name ? 'delete' : 'deletecollection';
      break;
    default:
      verb = method.toLowerCase();
  }
  return { isResource: true, group, version, namespace, resource, name, subresource, verb, path };
}
