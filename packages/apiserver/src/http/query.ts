/**
 * The query parameters of a request, read into the options of its verb as kube-apiserver reads
 * them: apimachinery's parameter codec converts each parameter (the first of its values) into
 * the field of ListOptions, CreateOptions, UpdateOptions, PatchOptions or DeleteOptions it names
 * (pkg/runtime/conversion.go, pkg/apis/meta/v1/conversion.go), a value that does not convert is
 * a 400, and the options are then validated (pkg/apis/meta/v1/validation,
 * pkg/apis/meta/internalversion/validation), a rule broken being a 422 naming the options' kind
 * and the field. Unknown parameters are ignored, as there.
 */
import type { IncomingMessage } from 'node:http';
import { isObject } from '../json';
import type { DeleteOptions, FieldValidation, WriteContext } from '../operations';
import { badRequest, fieldError, invalid, type FieldError } from '../status';
import type { IncludeObject } from '../table';
import type { UserInfo } from '../types';

const META = 'meta.k8s.io';

/** The first value of a parameter, as the codec reads a one-valued field; undefined when absent. */
function first(q: URLSearchParams, name: string): string | undefined {
  return q.get(name) ?? undefined;
}

/**
 * A boolean parameter (Convert_Slice_string_To_bool): absent is undefined; "0" and "false" in
 * any case are false; anything else — "true", "True" (what Python clients send), "1", "t", "",
 * even "yes" — is true. Never an error.
 */
export function boolParam(q: URLSearchParams, name: string): boolean | undefined {
  const v = first(q, name);
  if (v === undefined) return undefined;
  const lower = v.toLowerCase();
  return !(lower === 'false' || lower === '0');
}

/** Go's strconv.ParseInt(s, 10, 64): an optional sign and decimal digits, within int64. */
const INT = /^[+-]?\d+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * An integer parameter (Convert_Slice_string_To_int64 / _Pointer_int64): absent is undefined;
 * anything strconv.ParseInt refuses ("abc", "1.5", "", " 1", "0x10", past int64) is a 400 with
 * Go's own message, prefixed with the parameter's name.
 */
export function intParam(q: URLSearchParams, name: string): number | undefined {
  const v = first(q, name);
  if (v === undefined) return undefined;
  const refuse = (why: string) =>
    badRequest(
      `${name}: Invalid value: ${JSON.stringify(v)}: strconv.ParseInt: parsing ${JSON.stringify(v)}: ${why}`,
    );
  if (!INT.test(v)) throw refuse('invalid syntax');
  const n = BigInt(v);
  if (n < INT64_MIN || n > INT64_MAX) throw refuse('value out of range');
  return Number(n);
}

/**
 * Whether a GET of a collection is a watch, as the RequestInfoFactory decides it (it decodes the
 * ListOptions, and when they do not decode still reads `watch` alone): by `watch` read as a
 * boolean, so `watch=True`, `watch=1` and `watch=t` open a watch and `watch=false`, `watch=0`
 * list. The deprecated `/watch/` path prefix is the path's business.
 */
export function isWatchQuery(q: URLSearchParams): boolean {
  return boolParam(q, 'watch') ?? false;
}

export interface ListOptions {
  watch: boolean;
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  /** 0 = no limit (a negative one too, as etcd's storage reads it). */
  limit: number;
  continue?: string;
  allowWatchBookmarks: boolean;
  sendInitialEvents?: boolean;
  /** As given; a watch with none, or with 0, gets the server's default. */
  timeoutSeconds?: number;
}

/**
 * The ListOptions of a list or watch: decoded (a parameter that does not convert is a 400), then
 * validated as ValidateListOptions does, the WatchList feature on (sendInitialEvents is served).
 * Unlike a server with that feature on, a watch without sendInitialEvents is not defaulted to
 * it: the events it gets are the same (the objects as ADDED, then changes) but for the
 * initial-events-end bookmark, which only a client that asked for it expects.
 */
export function listOptions(q: URLSearchParams, watch: boolean): ListOptions {
  const o: ListOptions = {
    watch,
    limit: Math.max(0, intParam(q, 'limit') ?? 0),
    allowWatchBookmarks: boolParam(q, 'allowWatchBookmarks') ?? false,
  };
  const set = <K extends keyof ListOptions>(k: K, v: ListOptions[K] | undefined) => {
    if (v !== undefined) o[k] = v;
  };
  set('labelSelector', first(q, 'labelSelector'));
  set('fieldSelector', first(q, 'fieldSelector'));
  set('resourceVersion', first(q, 'resourceVersion'));
  const cont = first(q, 'continue');
  if (cont) o.continue = cont;
  set('sendInitialEvents', boolParam(q, 'sendInitialEvents'));
  set('timeoutSeconds', intParam(q, 'timeoutSeconds'));
  const match = first(q, 'resourceVersionMatch') ?? '';
  const errors = watch ? watchErrors(o, match) : listErrors(o, match);
  if (errors.length) throw invalid({ group: META, kind: 'ListOptions' }, '', errors);
  if (match === 'Exact' || match === 'NotOlderThan') o.resourceVersionMatch = match;
  return o;
}

function listErrors(o: ListOptions, match: string): FieldError[] {
  const errors: FieldError[] = [];
  if (match) {
    const f = 'resourceVersionMatch';
    if (!o.resourceVersion)
      errors.push(
        fieldError.forbidden(
          f,
          'resourceVersionMatch is forbidden unless resourceVersion is provided',
        ),
      );
    if (o.continue)
      errors.push(
        fieldError.forbidden(f, 'resourceVersionMatch is forbidden when continue is provided'),
      );
    if (match !== 'Exact' && match !== 'NotOlderThan')
      errors.push(fieldError.notSupported(f, match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && o.resourceVersion === '0')
      errors.push(
        fieldError.forbidden(
          f,
          'resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
        ),
      );
  }
  if (o.sendInitialEvents !== undefined)
    errors.push(
      fieldError.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'),
    );
  return errors;
}

function watchErrors(o: ListOptions, match: string): FieldError[] {
  const errors: FieldError[] = [];
  const f = 'resourceVersionMatch';
  if (o.sendInitialEvents !== undefined && match !== 'NotOlderThan')
    errors.push(
      fieldError.forbidden(
        f,
        'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      ),
    );
  if (match) {
    if (o.sendInitialEvents === undefined)
      errors.push(
        fieldError.forbidden(
          f,
          'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        ),
      );
    if (match !== 'NotOlderThan') errors.push(fieldError.notSupported(f, match, ['NotOlderThan']));
    if (o.continue)
      errors.push(
        fieldError.forbidden(f, 'resourceVersionMatch is forbidden when continue is provided'),
      );
  }
  return errors;
}

const FIELD_MANAGER_MAX = 128;
const FIELD_VALIDATIONS = ['', 'Ignore', 'Strict', 'Warn'];

/** Unicode's printable characters as Go's unicode.IsPrint has them (letters, marks, numbers, punctuation, symbols, ASCII space). */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** ValidateFieldManager: at most 128 bytes, every character printable. */
function fieldManagerErrors(fm: string): FieldError[] {
  const errors: FieldError[] = [];
  if (Buffer.byteLength(fm) > FIELD_MANAGER_MAX)
    errors.push(fieldError.tooLong('fieldManager', FIELD_MANAGER_MAX));
  let at = 0;
  for (const ch of fm) {
    if (!PRINTABLE.test(ch)) {
      const code = ch.codePointAt(0) ?? 0;
      errors.push(
        fieldError.invalid(
          'fieldManager',
          fm,
          `invalid character U+${code.toString(16).toUpperCase().padStart(4, '0')} (at position ${at})`,
        ),
      );
    }
    at += Buffer.byteLength(ch);
  }
  return errors;
}

function dryRunErrors(dryRun: readonly unknown[]): FieldError[] {
  return dryRun.every((d) => d === 'All')
    ? []
    : [fieldError.notSupported('dryRun', dryRun, ['All'])];
}

/**
 * The manager of a write that names none: the user agent up to its first `/`, its unprintable
 * characters dropped, cut at 128 bytes (upstream's prefixFromUserAgent): `kubectl-edit`,
 * `OpenAPI-Generator` for the Python client.
 */
function managerFromUserAgent(req: IncomingMessage): string {
  let out = '';
  for (const ch of (req.headers['user-agent'] ?? '').split('/')[0] ?? '') {
    if (!PRINTABLE.test(ch)) continue;
    if (Buffer.byteLength(out + ch) > FIELD_MANAGER_MAX) break;
    out += ch;
  }
  return out;
}

export type WriteVerb =
  | { kind: 'CreateOptions' | 'UpdateOptions' }
  | { kind: 'PatchOptions'; apply: boolean }
  | { kind: 'DeleteOptions'; dryRun: readonly unknown[] };

/**
 * The options of a write (CreateOptions, UpdateOptions, PatchOptions; DeleteOptions' dryRun,
 * which `deleteOptions` reads), validated as upstream validates each: fieldManager,
 * dryRun and fieldValidation (exactly `Ignore`, `Strict` or `Warn`; none is `Warn`), an apply
 * patch's required fieldManager, `force` only on an apply patch.
 */
export function writeContext(
  user: UserInfo,
  q: URLSearchParams,
  req: IncomingMessage,
  verb: WriteVerb,
): WriteContext & { force: boolean } {
  const dryRun = verb.kind === 'DeleteOptions' ? verb.dryRun : q.getAll('dryRun');
  const errors = dryRunErrors(dryRun);
  const given = first(q, 'fieldManager') ?? '';
  let fieldValidation: FieldValidation = 'Warn';
  let force = false;
  if (verb.kind !== 'DeleteOptions') {
    errors.unshift(...fieldManagerErrors(given));
    if (verb.kind === 'PatchOptions') {
      const f = boolParam(q, 'force');
      if (!verb.apply && f !== undefined)
        errors.unshift(fieldError.forbidden('force', 'may not be specified for non-apply patch'));
      if (verb.apply && !given)
        errors.unshift(fieldError.required('fieldManager', 'is required for apply patch'));
      force = f ?? false;
    }
    const fv = first(q, 'fieldValidation') ?? '';
    if (!FIELD_VALIDATIONS.includes(fv))
      errors.push(fieldError.notSupported('fieldValidation', fv, FIELD_VALIDATIONS));
    else if (fv) fieldValidation = fv as FieldValidation;
  }
  if (errors.length) throw invalid({ group: META, kind: verb.kind }, '', errors);
  const ctx: WriteContext & { force: boolean } = {
    user,
    dryRun: dryRun.length > 0,
    fieldValidation,
    warnings: [],
    force,
  };
  const fm = given || managerFromUserAgent(req);
  if (fm) ctx.fieldManager = fm;
  return ctx;
}

/**
 * Table options: `includeObject` is `None`, `Metadata`, `Object` or empty (the default for
 * the request), else a 400 with ValidateTableOptions' message.
 */
export function includeObject(q: URLSearchParams, fallback: IncludeObject): IncludeObject {
  const v = first(q, 'includeObject') ?? '';
  if (v === 'None' || v === 'Metadata' || v === 'Object') return v;
  if (v !== '')
    throw badRequest(
      `includeObject: Invalid value: ${JSON.stringify(v)}: must be 'Metadata', 'Object', 'None', or empty`,
    );
  return fallback;
}

const POLICIES = ['Foreground', 'Background', 'Orphan'] as const;
type Policy = (typeof POLICIES)[number];

/**
 * The DeleteOptions of a delete or deletecollection, as upstream's delete handler reads them:
 * from the body when it has one — and then from it alone, the query ignored — else from the
 * query. `propagationPolicy` with `orphanDependents` is a 422, as is a policy other than
 * Foreground, Background or Orphan; `orphanDependents=true` alone orphans, `false` alone
 * leaves the kind's default. A body field of the wrong type is a 400, as the decoder's.
 */
export function deleteOptions(
  q: URLSearchParams,
  body: unknown,
): DeleteOptions & { dryRun: unknown[] } {
  let policy: string | undefined;
  let orphan: boolean | undefined;
  let grace: number | undefined;
  let dryRun: unknown[];
  const o: DeleteOptions & { dryRun: unknown[] } = { dryRun: [] };
  if (body !== undefined) {
    if (!isObject(body)) throw badRequest('the DeleteOptions body must be a JSON object');
    const typed = <T>(field: string, type: string, ok: (v: unknown) => v is T): T | undefined => {
      const v = body[field];
      if (v === undefined || v === null) return undefined;
      if (!ok(v))
        throw badRequest(
          `json: cannot unmarshal ${typeof v} into Go struct field DeleteOptions.${field} of type ${type}`,
        );
      return v;
    };
    policy = typed('propagationPolicy', 'string', (v): v is string => typeof v === 'string');
    orphan = typed('orphanDependents', 'bool', (v): v is boolean => typeof v === 'boolean');
    grace = typed('gracePeriodSeconds', 'int64', (v): v is number => Number.isInteger(v));
    dryRun = typed('dryRun', '[]string', (v): v is unknown[] => Array.isArray(v)) ?? [];
    const pre = typed('preconditions', 'Preconditions', isObject);
    if (pre) {
      o.preconditions = {};
      if (typeof pre.uid === 'string') o.preconditions.uid = pre.uid;
      if (typeof pre.resourceVersion === 'string')
        o.preconditions.resourceVersion = pre.resourceVersion;
    }
  } else {
    policy = first(q, 'propagationPolicy');
    orphan = boolParam(q, 'orphanDependents');
    grace = intParam(q, 'gracePeriodSeconds');
    dryRun = q.getAll('dryRun');
  }
  const errors: FieldError[] = [];
  if (orphan !== undefined && policy !== undefined)
    errors.push(
      fieldError.invalid(
        'propagationPolicy',
        policy,
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    );
  if (policy !== undefined && !(POLICIES as readonly string[]).includes(policy))
    errors.push(fieldError.notSupported('propagationPolicy', policy, [...POLICIES, 'nil']));
  errors.push(...dryRunErrors(dryRun));
  if (errors.length) throw invalid({ group: META, kind: 'DeleteOptions' }, '', errors);
  if (policy !== undefined) o.propagationPolicy = policy as Policy;
  else if (orphan === true) o.propagationPolicy = 'Orphan';
  if (grace !== undefined) o.gracePeriodSeconds = grace;
  o.dryRun = dryRun;
  return o;
}
