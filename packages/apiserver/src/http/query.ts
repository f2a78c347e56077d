/**
 * The query parameters of a request, read into the options of its verb: the write options
 * (dryRun, fieldValidation, fieldManager), the delete options, the Table options and the booleans.
 */
import type { IncomingMessage } from 'node:http';
import { isObject, own } from '../json';
import type { DeleteOptions, FieldValidation, WriteContext } from '../operations';
import { badRequest } from '../status';
import type { IncludeObject } from '../table';
import type { UserInfo } from '../types';

export function boolParam(v: string | null): boolean | undefined {
  if (v === null) return undefined;
  return v === 'true' || v === '1' || v === '';
}

export function writeContext(
  user: UserInfo,
  q: URLSearchParams,
  req: IncomingMessage,
  bodyDryRun?: unknown,
): WriteContext {
  const dryRun = q.getAll('dryRun');
  const bodyDry = Array.isArray(bodyDryRun) ? (bodyDryRun as unknown[]) : [];
  for (const d of [...dryRun, ...bodyDry]) {
    if (d !== 'All')
      throw badRequest(`dryRun: Unsupported value: "${String(d)}": supported values: "All"`);
  }
  const fv = q.get('fieldValidation') ?? 'Warn';
  const map: Record<string, FieldValidation> = {
    Strict: 'Strict',
    Warn: 'Warn',
    Ignore: 'Ignore',
    strict: 'Strict',
    warn: 'Warn',
    ignore: 'Ignore',
  };
  const fieldValidation = own(map, fv);
  if (!fieldValidation) {
    throw badRequest(
      `fieldValidation: Unsupported value: "${fv}": supported values: "Ignore", "Strict", "Warn"`,
    );
  }
  const ctx: WriteContext = {
    user,
    dryRun: dryRun.length > 0 || bodyDry.length > 0,
    fieldValidation,
    warnings: [],
  };
  const fm = q.get('fieldManager') ?? defaultManager(req);
  if (fm) ctx.fieldManager = fm;
  return ctx;
}

/** The real server names an unnamed manager after the client's user agent (`kubectl-edit`). */
function defaultManager(req: IncomingMessage): string | undefined {
  const ua = req.headers['user-agent'];
  if (!ua) return undefined;
  return ua.split('/')[0]?.slice(0, 128);
}

export function includeObject(q: URLSearchParams, fallback: IncludeObject): IncludeObject {
  const v = q.get('includeObject');
  if (v === 'None' || v === 'Metadata' || v === 'Object') return v;
  if (v !== null && v !== '') throw badRequest(`includeObject: Unsupported value: "${v}"`);
  return fallback;
}

export function deleteOptions(q: URLSearchParams, body: unknown): DeleteOptions {
  const o: DeleteOptions = {};
  const b = isObject(body) ? body : {};
  const policy =
    q.get('propagationPolicy') ??
    (typeof b.propagationPolicy === 'string' ? b.propagationPolicy : undefined);
  const orphan =
    q.get('orphanDependents') ??
    (typeof b.orphanDependents === 'boolean' ? String(b.orphanDependents) : undefined);
  if (policy !== undefined) {
    if (policy !== 'Orphan' && policy !== 'Background' && policy !== 'Foreground') {
      throw badRequest(
        `propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan"`,
      );
    }
    o.propagationPolicy = policy;
  } else if (orphan === 'true') o.propagationPolicy = 'Orphan';
  const pre = isObject(b.preconditions) ? b.preconditions : undefined;
  if (pre) {
    o.preconditions = {};
    if (typeof pre.uid === 'string') o.preconditions.uid = pre.uid;
    if (typeof pre.resourceVersion === 'string')
      o.preconditions.resourceVersion = pre.resourceVersion;
  }
  return o;
}
