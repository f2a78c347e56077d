/**
 * Every error the server answers is a `Status` shaped exactly as kube-apiserver shapes it
 * (k8s.io/apimachinery/pkg/api/errors), because clients branch on reason and code, and kubectl
 * prints the message verbatim.
 */

export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'Forbidden'
  | 'Unauthorized'
  | 'MethodNotAllowed'
  | 'UnsupportedMediaType'
  | 'NotAcceptable'
  | 'Expired'
  | 'Gone'
  | 'BadRequest'
  | 'Timeout'
  | 'TooManyRequests'
  | 'InternalError'
  | 'RequestEntityTooLarge';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    /** Empty only for a webhook's Status that has none. */
    readonly reason: StatusReason | '',
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }

  toStatus(): StatusBody {
    const body: StatusBody = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      // A webhook's Status may have no reason; Go's omitempty leaves it out.
      ...(this.reason ? { reason: this.reason } : {}),
      code: this.code,
    };
    if (this.details) body.details = this.details;
    return body;
  }
}

/** What the errors name: `{group, resource}`; `widgets.example.com`, or `configmaps` for core. */
export interface GroupResource {
  group: string;
  resource: string;
}

export function qualified(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

function grDetails(gr: GroupResource, name?: string): StatusDetails {
  const d: StatusDetails = {};
  if (name) d.name = name;
  if (gr.group) d.group = gr.group;
  d.kind = gr.resource;
  return d;
}

export function notFound(gr: GroupResource, name: string): ApiError {
  return new ApiError(404, 'NotFound', `${qualified(gr)} "${name}" not found`, grDetails(gr, name));
}

export function alreadyExists(gr: GroupResource, name: string): ApiError {
  return new ApiError(
    409,
    'AlreadyExists',
    `${qualified(gr)} "${name}" already exists`,
    grDetails(gr, name),
  );
}

export const CONFLICT_MESSAGE =
  'the object has been modified; please apply your changes to the latest version and try again';

export function conflict(gr: GroupResource, name: string, why = CONFLICT_MESSAGE): ApiError {
  return new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified(gr)} "${name}": ${why}`,
    grDetails(gr, name),
  );
}

/** One field error, as k8s.io/apimachinery/pkg/util/validation/field renders it. */
export interface FieldError {
  type:
    | 'FieldValueRequired'
    | 'FieldValueInvalid'
    | 'FieldValueNotSupported'
    | 'FieldValueForbidden'
    | 'FieldValueTooLong'
    | 'FieldValueTooMany'
    | 'FieldValueDuplicate'
    | 'FieldValueTypeInvalid';
  field: string;
  /** Already rendered, e.g. `Invalid value: "x": must be ...`. */
  body: string;
}

export function renderValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return 'null';
  return JSON.stringify(value);
}

export const fieldError = {
  required(field: string, detail = ''): FieldError {
    return {
      type: 'FieldValueRequired',
      field,
      body: detail ? `Required value: ${detail}` : 'Required value',
    };
  },
  invalid(field: string, value: unknown, detail: string): FieldError {
    return {
      type: 'FieldValueInvalid',
      field,
      body: `Invalid value: ${renderValue(value)}${detail ? `: ${detail}` : ''}`,
    };
  },
  notSupported(field: string, value: unknown, allowed: readonly unknown[]): FieldError {
    return {
      type: 'FieldValueNotSupported',
      field,
      body: `Unsupported value: ${renderValue(value)}: supported values: ${allowed.map(renderValue).join(', ')}`,
    };
  },
  forbidden(field: string, detail: string): FieldError {
    return { type: 'FieldValueForbidden', field, body: `Forbidden: ${detail}` };
  },
  tooLong(field: string, max: number): FieldError {
    return {
      type: 'FieldValueTooLong',
      field,
      body: `Too long: may not be longer than ${max}`,
    };
  },
  tooMany(field: string, actual: number, max: number): FieldError {
    return {
      type: 'FieldValueTooMany',
      field,
      body: `Too many: ${actual}: must have at most ${max} items`,
    };
  },
  duplicate(field: string, value: unknown): FieldError {
    return { type: 'FieldValueDuplicate', field, body: `Duplicate value: ${renderValue(value)}` };
  },
};

/** 422 Invalid: `Kind.group "name" is invalid: [a: ..., b: ...]` with one cause per field error. */
export function invalid(
  gk: { group: string; kind: string },
  name: string,
  errors: readonly FieldError[],
): ApiError {
  const rendered = errors.map((e) => `${e.field}: ${e.body}`);
  const all = rendered.length === 1 ? (rendered[0] ?? '') : `[${rendered.join(', ')}]`;
  const qualifiedKind = gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
  const details: StatusDetails = { name, kind: gk.kind };
  if (gk.group) details.group = gk.group;
  details.causes = errors.map((e) => ({ reason: e.type, message: e.body, field: e.field }));
  if (!name) Reflect.deleteProperty(details, 'name');
  return new ApiError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${all}`, details);
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

export function unauthorized(): ApiError {
  return new ApiError(401, 'Unauthorized', 'Unauthorized');
}

export function forbidden(gr: GroupResource, name: string, why: string): ApiError {
  const subject = name ? `${qualified(gr)} "${name}"` : qualified(gr);
  return new ApiError(403, 'Forbidden', `${subject} is forbidden: ${why}`, grDetails(gr, name));
}

export function methodNotAllowed(): ApiError {
  return new ApiError(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
  );
}

export function unsupportedMediaType(contentType: string, accepted: readonly string[]): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    contentType ? {} : undefined,
  );
}

export function notAcceptable(accepted: readonly string[]): ApiError {
  return new ApiError(
    406,
    'NotAcceptable',
    `only the following media types are accepted: ${accepted.join(', ')}`,
  );
}

/** The 410 of a watch or list whose resourceVersion fell out of the history window. */
export function expired(requested: string, oldest: number): ApiError {
  return new ApiError(410, 'Expired', `too old resource version: ${requested} (${oldest})`);
}

export function tooLargeResourceVersion(requested: string, current: number): ApiError {
  return new ApiError(
    504,
    'Timeout',
    `Too large resource version: ${requested}, current: ${current}`,
    {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    },
  );
}

export function notFoundPath(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function internalError(err: unknown): ApiError {
  const why = err instanceof Error ? err.message : String(err);
  return new ApiError(500, 'InternalError', `Internal error occurred: ${why}`, {
    causes: [{ message: why }],
  });
}

export function toApiError(err: unknown): ApiError {
  return err instanceof ApiError ? err : internalError(err);
}
