/**
 * The verbs on resources: get, list (limit/continue, resourceVersion semantics, selectors, Table),
 * watch, create, update, patch, delete, deletecollection, and the status and scale subresources.
 * Handlers are thin: every write goes through Operations.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerReview } from '../auth/reviews';
import { evictPod } from '../builtin/eviction';
import type { RbacAuthorizer } from '../auth/rbac';
import { isObject, own } from '../json';
import {
  PATCH_CONTENT_TYPES,
  type Operations,
  type Subresource,
  type WriteResult,
} from '../operations';
import type { Registry, ResourceType } from '../registry';
import { parseFieldSelector, parseLabelSelector, matchesFields, matchesLabels } from '../selectors';
import {
  ApiError,
  badRequest,
  expired,
  methodNotAllowed,
  notFound,
  notFoundPath,
  tooLargeResourceVersion,
} from '../status';
import type { Store } from '../store/store';
import { joinJson, type Stored } from '../store/stored';
import { table, toPartial } from '../table';
import type { KubeObject, UserInfo } from '../types';
import { decodeBody, mediaType, readRaw } from './body';
import { deleteOptions, includeObject, listOptions, writeContext, type ListOptions } from './query';
import type { ResourceRequest } from './request-info';
import { decodeProtobuf, hasProtobuf } from './protobuf';
import {
  negotiate,
  sendJson,
  sendJsonBytes,
  sendObject,
  warningHeaders,
  type Negotiated,
} from './respond';
import { serveWatch, type WatchBacklogLimits, type WatchFlusher } from './watch';

export interface HandlerContext {
  registry: Registry;
  store: Store;
  ops: Operations;
  rbac: RbacAuthorizer;
  bookmarkIntervalMs: number;
  watchFlusher: WatchFlusher;
  /** A watch whose client does not keep up is ended past these bounds. */
  watchBacklog: WatchBacklogLimits;
  /** Watches close when the server closes. */
  trackWatch: (finish: () => void) => void;
}

const BODY_TYPES = ['application/json', 'application/yaml'];
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** A create/update body: JSON, YAML, or protobuf for the built-in kinds kubectl sends so. */
async function readObjectBody(req: IncomingMessage, rt: ResourceType): Promise<unknown> {
  const raw = await readRaw(req);
  // No Content-Type is the first serializer's, JSON (NegotiateInputSerializer): kubectl 1.20's
  // `create configmap` sends none.
  const type = mediaType(req) || 'application/json';
  if (type === PROTOBUF && hasProtobuf(rt.apiVersion, rt.kind))
    return decodeProtobuf(raw, rt.apiVersion, rt.kind);
  return decodeBody(raw, type, BODY_TYPES);
}

function gr(rt: ResourceType) {
  return { group: rt.group, resource: rt.plural };
}

interface ContinueToken {
  rv: number;
  start: string;
}

function encodeContinue(t: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: t.rv, start: t.start })).toString(
    'base64url',
  );
}

function decodeContinue(s: string): ContinueToken {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    if (isObject(v) && typeof v.rv === 'number' && typeof v.start === 'string')
      return { rv: v.rv, start: v.start };
  } catch {
    // fall through
  }
  throw badRequest(
    `continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)`,
  );
}

function selectorsOf(rt: ResourceType, q: URLSearchParams) {
  const fieldKeys = ['metadata.name', 'metadata.namespace', ...rt.selectableFields];
  return {
    labels: parseLabelSelector(q.get('labelSelector')),
    fields: parseFieldSelector(q.get('fieldSelector'), fieldKeys, !rt.builtin),
  };
}

function checkListRv(ctx: HandlerContext, rt: ResourceType, o: ListOptions): void {
  const rv = o.resourceVersion;
  if (!rv || rv === '0') return;
  if (!/^\d+$/.test(rv))
    throw badRequest(`resourceVersion: Invalid value: "${rv}": must be a non-negative integer`);
  const n = Number(rv);
  if (n > ctx.store.resourceVersion) throw tooLargeResourceVersion(rv, ctx.store.resourceVersion);
  if (o.resourceVersionMatch === 'Exact' && n !== ctx.store.resourceVersion) {
    // Only the latest state is kept; an exact read of an older one is as gone as a compacted one.
    throw expired(rv, ctx.store.compactedRv(rt) + 1);
  }
}

function list(
  ctx: HandlerContext,
  rt: ResourceType,
  ns: string | undefined,
  q: URLSearchParams,
  neg: Negotiated,
  res: ServerResponse,
): void {
  const opts = listOptions(q, false);
  const { labels, fields } = selectorsOf(rt, q);
  checkListRv(ctx, rt, opts);
  const limit = opts.limit;
  const token = opts.continue ? decodeContinue(opts.continue) : undefined;
  const listRv = token?.rv ?? ctx.store.resourceVersion;
  // Objects in key order, read lazily: a page costs its own objects, not the whole list.
  const all = ctx.store.ordered(rt, ns);
  // Resume after the last key of the previous page.
  const startIdx = token ? all.after(token.start) : 0;
  const filtering = labels.length > 0 || fields.length > 0;
  const matches = (s: Stored) =>
    matchesLabels(labels, s.labels) && matchesFields(fields, (f) => s.field(f));
  const items: Stored[] = [];
  let i = startIdx;
  for (; i < all.length; i++) {
    const s = all.at(i);
    if (!s || (filtering && !matches(s))) continue;
    if (limit > 0 && items.length === limit) break;
    items.push(s);
  }
  let more = false;
  // Is anything left that matches? (Without a selector, anything left does.)
  for (let j = i; limit > 0 && j < all.length && !more; j++) {
    const s = all.at(j);
    more = s !== undefined && (!filtering || matches(s));
  }
  const meta: Record<string, unknown> = { resourceVersion: String(listRv) };
  const last = items[items.length - 1];
  if (more && last) {
    meta.continue = encodeContinue({ rv: listRv, start: last.key });
    if (!filtering) meta.remainingItemCount = all.length - i;
  }
  if (neg.table) {
    sendObject(res, 200, table(rt, items, includeObject(q, 'Metadata'), meta), neg.encoding);
    return;
  }
  if (neg.partial) {
    sendObject(
      res,
      200,
      {
        kind: 'PartialObjectMetadataList',
        apiVersion: 'meta.k8s.io/v1',
        metadata: meta,
        items: items.map((s) => toPartial(s.object())),
      },
      neg.encoding,
    );
    return;
  }
  // Stored JSON is copied into the body, never re-serialized.
  const head = `{"kind":${JSON.stringify(rt.listKind)},"apiVersion":${JSON.stringify(rt.apiVersion)},"metadata":${JSON.stringify(meta)},"items":[`;
  sendJsonBytes(res, 200, joinJson(head, items, ']}'), neg.encoding);
}

function sendOne(
  res: ServerResponse,
  code: number,
  rt: ResourceType,
  result: WriteResult,
  neg: Negotiated,
  q: URLSearchParams,
  warnings: readonly string[],
): void {
  // A Table of what was stored; a dry run stored nothing, so it answers the object itself.
  if (neg.table && result.stored) {
    const s = result.stored;
    sendObject(
      res,
      code,
      table(rt, [s], includeObject(q, 'Metadata'), { resourceVersion: String(s.rv) }),
      neg.encoding,
      warnings,
    );
    return;
  }
  if (neg.partial) {
    sendObject(res, code, toPartial(result.object()), neg.encoding, warnings);
    return;
  }
  sendJson(res, code, result.json(), neg.encoding, warnings);
}

async function readDeleteBody(req: IncomingMessage): Promise<unknown> {
  const raw = await readRaw(req);
  if (raw.length === 0) return undefined;
  return decodeBody(raw, mediaType(req) || 'application/json', BODY_TYPES);
}

export async function handleResource(
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  info: ResourceRequest,
  user: UserInfo,
  q: URLSearchParams,
): Promise<void> {
  const rt = ctx.registry.lookup(info.group, info.version, info.resource);
  if (!rt) throw notFoundPath();
  // Every request to a deprecated version is told so, as kube-apiserver's deprecation filter
  // does (before the request is handled: a refused write carries it too).
  if (rt.deprecationWarning) warningHeaders(res, [rt.deprecationWarning]);
  const neg = negotiate(req);
  // For the namespace resource the URL's "namespace" is the object's name.
  const ns = rt.scope === 'Namespaced' ? info.namespace || undefined : undefined;
  if (rt.scope === 'Namespaced' && !ns && info.name) throw notFoundPath();
  const sub = info.subresource;
  if (sub === 'eviction' && rt.eviction && ns && info.name) {
    // POST pods/NAME/eviction (a create of a policy/v1 Eviction); nothing else is served there.
    if (info.verb !== 'create') throw methodNotAllowed();
    const wctx = writeContext(user, q, req, { kind: 'CreateOptions' });
    const body = await decodeBody(
      await readRaw(req),
      mediaType(req) || 'application/json',
      BODY_TYPES,
    );
    const answer = await evictPod(ctx, rt, ns, info.name, body, wctx);
    sendObject(res, answer.code, answer.body, neg.encoding, wctx.warnings);
    return;
  }
  if (sub && !((sub === 'status' && rt.statusSubresource) || (sub === 'scale' && rt.scale)))
    throw notFoundPath();
  const subresource = sub as Subresource;

  if (rt.virtual) {
    if (info.verb !== 'create') throw methodNotAllowed();
    const body = await readObjectBody(req, rt);
    if (!isObject(body)) throw badRequest('the body must be a JSON object');
    const obj = {
      ...body,
      apiVersion: rt.apiVersion,
      kind: rt.kind,
      metadata: isObject(body.metadata) ? body.metadata : {},
    } as KubeObject;
    sendObject(res, 201, answerReview(rt.kind, obj, user, ctx.rbac, info.namespace), neg.encoding);
    return;
  }

  switch (info.verb) {
    case 'get': {
      const s = ctx.store.get(rt, ns, info.name);
      if (!s) throw notFound(gr(rt), info.name);
      if (subresource === 'scale') {
        sendObject(res, 200, ctx.ops.scaleOf(rt, s), neg.encoding);
        return;
      }
      if (neg.table) {
        sendObject(
          res,
          200,
          table(rt, [s], includeObject(q, 'Metadata'), { resourceVersion: String(s.rv) }),
          neg.encoding,
        );
        return;
      }
      if (neg.partial) {
        sendObject(res, 200, toPartial(s.object()), neg.encoding);
        return;
      }
      sendJson(res, 200, s.json, neg.encoding);
      return;
    }
    case 'list':
      list(ctx, rt, ns, q, neg, res);
      return;
    case 'watch': {
      const opts = listOptions(q, true);
      const { labels, fields } = selectorsOf(rt, q);
      const allFields = info.name
        ? [...fields, { field: 'metadata.name', op: '=' as const, value: info.name }]
        : fields;
      const rv = opts.resourceVersion;
      if (rv && rv !== '0') {
        if (!/^\d+$/.test(rv))
          throw badRequest(
            `resourceVersion: Invalid value: "${rv}": must be a non-negative integer`,
          );
        if (Number(rv) > ctx.store.resourceVersion)
          throw tooLargeResourceVersion(rv, ctx.store.resourceVersion);
      }
      // Like kube-apiserver: without a timeout (or with 0), a watch ends after 30–60 minutes; a
      // negative one ends it at once.
      const timeout = opts.timeoutSeconds ?? 0;
      const timeoutMs = timeout !== 0 ? timeout * 1000 : (1800 + Math.random() * 1800) * 1000;
      serveWatch(
        res,
        ctx.store,
        rt,
        {
          namespace: ns,
          labels,
          fields: allFields,
          resourceVersion: rv,
          sendInitialEvents: opts.sendInitialEvents,
          allowBookmarks: opts.allowWatchBookmarks,
          timeoutMs,
          bookmarkIntervalMs: ctx.bookmarkIntervalMs,
          table: neg.table ? includeObject(q, 'Metadata') : undefined,
          backlog: ctx.watchBacklog,
        },
        ctx.watchFlusher,
        ctx.trackWatch,
      );
      return;
    }
    case 'create': {
      if (info.name) throw methodNotAllowed();
      const wctx = writeContext(user, q, req, { kind: 'CreateOptions' });
      const body = await readObjectBody(req, rt);
      const obj = await ctx.ops.create(rt, ns, body, wctx);
      sendOne(res, 201, rt, obj, neg, q, wctx.warnings);
      return;
    }
    case 'update': {
      const wctx = writeContext(user, q, req, { kind: 'UpdateOptions' });
      const body = await readObjectBody(req, rt);
      const obj = await ctx.ops.update(rt, ns, info.name, body, wctx, subresource);
      sendOne(res, 200, rt, obj, neg, q, wctx.warnings);
      return;
    }
    case 'patch': {
      const type = mediaType(req);
      const patchType = own(PATCH_CONTENT_TYPES, type);
      const accepted = Object.keys(PATCH_CONTENT_TYPES).filter(
        (t) => !t.endsWith('cbor') && (rt.strategicMergePatch || !t.includes('strategic')),
      );
      if (!patchType || type === 'application/apply-patch+cbor')
        throw new ApiError(
          415,
          'UnsupportedMediaType',
          `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
        );
      const wctx = writeContext(user, q, req, {
        kind: 'PatchOptions',
        apply: patchType === 'apply',
      });
      const body = decodeBody(await readRaw(req), type, [type]);
      const existed = ctx.store.get(rt, ns, info.name) !== undefined;
      const force = wctx.force;
      const obj = await ctx.ops.patch(rt, ns, info.name, patchType, body, wctx, subresource, force);
      sendOne(res, existed || wctx.dryRun ? 200 : 201, rt, obj, neg, q, wctx.warnings);
      return;
    }
    case 'delete': {
      const opts = deleteOptions(q, await readDeleteBody(req));
      const wctx = writeContext(user, q, req, { kind: 'DeleteOptions', dryRun: opts.dryRun });
      const result = await ctx.ops.delete(rt, ns, info.name, opts, wctx);
      if (!result.deleted || rt.deleteReturnsObject) {
        sendObject(res, 200, result.obj, neg.encoding, wctx.warnings);
        return;
      }
      const details: Record<string, unknown> = { name: info.name };
      if (rt.group) details.group = rt.group;
      details.kind = rt.plural;
      details.uid = result.obj.metadata.uid;
      sendObject(
        res,
        200,
        { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details },
        neg.encoding,
        wctx.warnings,
      );
      return;
    }
    case 'deletecollection': {
      const opts = deleteOptions(q, await readDeleteBody(req));
      const wctx = writeContext(user, q, req, { kind: 'DeleteOptions', dryRun: opts.dryRun });
      const { labels, fields } = selectorsOf(rt, q);
      const deleted: string[] = [];
      for (const s of ctx.store.list(rt, ns)) {
        if (!matchesLabels(labels, s.labels) || !matchesFields(fields, (f) => s.field(f))) continue;
        try {
          const r = await ctx.ops.delete(rt, s.namespace || undefined, s.name, opts, wctx);
          deleted.push(JSON.stringify(r.obj));
        } catch (e) {
          if (!(e instanceof ApiError && e.code === 404)) throw e;
        }
      }
      sendJson(
        res,
        200,
        `{"kind":${JSON.stringify(rt.listKind)},"apiVersion":${JSON.stringify(rt.apiVersion)},"metadata":{"resourceVersion":"${ctx.store.resourceVersion}"},"items":[${deleted.join(',')}]}`,
        neg.encoding,
        wctx.warnings,
      );
      return;
    }
    default:
      throw methodNotAllowed();
  }
}
