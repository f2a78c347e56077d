/**
 * Admission hooks registered by whoever starts the server, run as kube-apiserver runs webhooks:
 * every matching mutating hook first (in order), then schema validation, then every matching
 * validating hook. A denial reads like a webhook's: `admission webhook "<name>" denied the
 * request: <rule>: <message>`, and carries the rule id as the reason of its cause.
 */
import { deepEqual, put } from './json';
import { ApiError, type StatusReason } from './status';
import type { AdmissionHook, AdmissionRequest, AdmissionResult, KubeObject } from './types';

/**
 * How a request to a kind with several versions is shown to each hook: in the version it takes
 * (`AdmissionHook.versions`, else the storage version), as kube-apiserver converts a webhook's
 * request to the version its rules name.
 */
export interface AdmissionConverter {
  versionFor(hook: AdmissionHook): string;
  /** `obj`, in the request's version, converted to `version`. */
  to(obj: KubeObject, version: string): KubeObject;
  /** `obj`, in `version`, converted back to the request's version. */
  from(obj: KubeObject, version: string): KubeObject;
}

/** The request as a hook taking `version` sees it. */
function viewIn(
  req: AdmissionRequest,
  version: string,
  conv: AdmissionConverter,
): AdmissionRequest {
  const view: AdmissionRequest = {
    ...req,
    kind: { ...req.kind, version },
    resource: { ...req.resource, version },
  };
  if (req.object) view.object = conv.to(req.object, version);
  if (req.oldObject) view.oldObject = conv.to(req.oldObject, version);
  return view;
}

/** Replaces `target`'s fields with `source`'s (a mutated object converted back, in place). */
function replaceContents(target: KubeObject, source: KubeObject): void {
  for (const k of Object.keys(target)) Reflect.deleteProperty(target, k);
  // `put`, not Object.assign: a `__proto__` key of the object is a key, not its prototype.
  for (const k of Object.keys(source)) put(target, k, source[k]);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Applies to `target` what differs from `from` to `to` (both the hook's input and output, each
 * converted back the same way, so that the round trip's own changes cancel out): members added or
 * changed are set, members removed are deleted, objects recursively, anything else whole.
 */
function applyChanges(
  target: Record<string, unknown>,
  from: Record<string, unknown>,
  to: Record<string, unknown>,
): void {
  for (const k of Object.keys(from)) {
    if (!Object.hasOwn(to, k)) Reflect.deleteProperty(target, k);
  }
  for (const k of Object.keys(to)) {
    const a = Object.hasOwn(from, k) ? from[k] : undefined;
    const b = to[k];
    if (deepEqual(a, b)) continue;
    const t = Object.hasOwn(target, k) ? target[k] : undefined;
    if (isPlainObject(a) && isPlainObject(b) && isPlainObject(t)) applyChanges(t, a, b);
    else put(target, k, structuredClone(b));
  }
}

function matches(hook: AdmissionHook, req: AdmissionRequest): boolean {
  const m = hook.match;
  if (!m) return req.subResource === undefined;
  if (m.operations && !m.operations.includes(req.operation)) return false;
  if (req.subResource !== undefined && !(m.subresources ?? []).includes(req.subResource))
    return false;
  if (m.kinds) {
    return m.kinds.some(
      (k) =>
        (k.group === '*' || k.group === req.kind.group) &&
        (k.kind === '*' || k.kind === req.kind.kind),
    );
  }
  return true;
}

function reasonFor(code: number): StatusReason {
  switch (code) {
    case 422:
      return 'Invalid';
    case 403:
      return 'Forbidden';
    case 409:
      return 'Conflict';
    case 404:
      return 'NotFound';
    default:
      return 'BadRequest';
  }
}

export class Admission {
  constructor(private readonly hooks: AdmissionHook[]) {}

  add(hook: AdmissionHook): void {
    this.hooks.push(hook);
  }

  /**
   * Runs every matching mutating hook; `conv` shows the request in each hook's version. What a
   * hook leaves unchanged is not converted back: a round trip through another version is not
   * always the identity (an empty `status: {}` a version adds), and a webhook that patches
   * nothing changes nothing. Throws the first denial.
   */
  async mutate(req: AdmissionRequest, conv?: AdmissionConverter): Promise<string[]> {
    const warnings: string[] = [];
    for (const hook of this.hooks) {
      if (!hook.mutate || !matches(hook, req)) continue;
      const version = conv?.versionFor(hook) ?? req.kind.version;
      let res: AdmissionResult | undefined;
      if (!conv || version === req.kind.version) res = await hook.mutate(req);
      else {
        const view = viewIn(req, version, conv);
        const before = view.object ? structuredClone(view.object) : undefined;
        res = await hook.mutate(view);
        if (req.object && view.object && before && !deepEqual(before, view.object)) {
          const after = conv.from(view.object, version);
          if (hook.changes === 'patch') applyChanges(req.object, conv.from(before, version), after);
          else replaceContents(req.object, after);
        }
      }
      if (res) this.check(hook, req, res, warnings);
    }
    return warnings;
  }

  /** Collects a hook's warnings; throws its denial as kube-apiserver words a webhook's. */
  private check(
    hook: AdmissionHook,
    req: AdmissionRequest,
    res: AdmissionResult,
    warnings: string[],
  ): void {
    warnings.push(...(res.warnings ?? []));
    if (res.allowed) return;
    const deniedBy = `admission webhook "${hook.name}" denied the request`;
    if (res.status) {
      const st = res.status;
      const code = st.code < 400 ? 400 : st.code;
      throw new ApiError(
        code,
        (st.reason ?? '') as StatusReason | '',
        st.message ? `${deniedBy}: ${st.message}` : `${deniedBy} without explanation`,
        st.details,
      );
    }
    const code = res.code ?? (res.field ? 422 : 403);
    const text = res.rule ? `${res.rule}: ${res.message}` : res.message;
    const cause: { reason?: string; message: string; field?: string } = { message: text };
    if (res.rule) cause.reason = res.rule;
    if (res.field) cause.field = res.field;
    const details: { name?: string; group?: string; kind: string; causes: (typeof cause)[] } = {
      kind: req.resource.resource,
      causes: [cause],
    };
    if (req.name) details.name = req.name;
    if (req.resource.group) details.group = req.resource.group;
    throw new ApiError(code, reasonFor(code), `${deniedBy}: ${text}`, details);
  }

  /** Runs every matching validating hook; returns their warnings, throws the first denial. */
  async validate(req: AdmissionRequest, conv?: AdmissionConverter): Promise<string[]> {
    const warnings: string[] = [];
    for (const hook of this.hooks) {
      if (!hook.validate || !matches(hook, req)) continue;
      const version = conv?.versionFor(hook) ?? req.kind.version;
      const res = await hook.validate(
        !conv || version === req.kind.version ? req : viewIn(req, version, conv),
      );
      this.check(hook, req, res, warnings);
    }
    return warnings;
  }
}
