/**
 * Admission hooks registered by whoever starts the server, run as kube-apiserver runs webhooks:
 * every matching mutating hook first (in order), then schema validation, then every matching
 * validating hook. A denial reads like a webhook's: `admission webhook "<name>" denied the
 * request: <rule>: <message>`, and carries the rule id as the reason of its cause.
 */
import { ApiError, type StatusReason } from './status';
import type { AdmissionHook, AdmissionRequest } from './types';

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

  async mutate(req: AdmissionRequest): Promise<void> {
    for (const hook of this.hooks) {
      if (hook.mutate && matches(hook, req)) await hook.mutate(req);
    }
  }

  /** Runs every matching validating hook; returns their warnings, throws the first denial. */
  async validate(req: AdmissionRequest): Promise<string[]> {
    const warnings: string[] = [];
    for (const hook of this.hooks) {
      if (!hook.validate || !matches(hook, req)) continue;
      const res = await hook.validate(req);
      warnings.push(...(res.warnings ?? []));
      if (res.allowed) continue;
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
      throw new ApiError(
        code,
        reasonFor(code),
        `admission webhook "${hook.name}" denied the request: ${text}`,
        details,
      );
    }
    return warnings;
  }
}
