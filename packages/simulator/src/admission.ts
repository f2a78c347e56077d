import type { AdmissionHook, AdmissionResult } from '@dcs/apiserver';
import {
  CAPI_HUB_VERSION,
  kindSchemas,
  kindTable,
  webhookRules,
  type RuleIssue,
} from '@dcs/domain';
import { capiWebhookHooks } from './capi-webhooks';

/**
 * The webhooks of Cluster API and the DCS provider, played by admission hooks: exactly the rules
 * DOMAIN.md says the API server enforces ("Where each rule is enforced"), taken from `domain`.
 * Every other rule is the console's, so kubectl can still create what the console warns about.
 */

type WebhookKind = keyof typeof webhookRules;

function decide(issues: RuleIssue[]): AdmissionResult {
  const warnings = issues
    .filter((i) => i.severity === 'warning')
    .map((i) => `${i.rule}: ${i.message}`);
  const errors = issues.filter((i) => i.severity === 'error');
  const first = errors[0];
  if (!first) return { allowed: true, ...(warnings.length ? { warnings } : {}) };
  return {
    allowed: false,
    rule: first.rule,
    field: first.path,
    message: errors.map((i) => `${i.path}: ${i.message}`).join('; '),
    code: 422,
    ...(warnings.length ? { warnings } : {}),
  };
}

function hookFor(kind: WebhookKind): AdmissionHook {
  const info = kindTable[kind];
  const rule = webhookRules[kind] as (object: unknown, old: unknown) => RuleIssue[];
  const schema = kindSchemas[kind];
  return {
    name: `validation.${info.singular}.${info.group}`,
    match: { kinds: [{ group: info.group, kind }], operations: ['CREATE', 'UPDATE'] },
    // The domain's rules read the hub (issue 23): a kind stored in v1beta2 is converted for them.
    versions: [CAPI_HUB_VERSION],
    validate: (request) => {
      // An object the schema rejects is the schema validation's to report, with its field causes.
      const object = schema.safeParse(request.object);
      if (!object.success) return { allowed: true };
      const old = request.oldObject ? schema.safeParse(request.oldObject) : undefined;
      return decide(rule(object.data, old?.success ? old.data : undefined));
    },
  };
}

/**
 * Failure injection: the server refuses every change to an object that carries this annotation
 * (its value is the refusal's message), as a webhook of a real platform might refuse what the
 * console cannot foresee. Preview must show the refusal at its step (it asks the server), and
 * Apply must write nothing. A change that removes the annotation is let through, so the object
 * can be freed; status writes (the controllers') are not affected.
 */
export const ANNOTATION_REFUSE = 'sim.dcs.io/refuse';

const refuseHook: AdmissionHook = {
  name: 'refuse.sim.dcs.io',
  match: { operations: ['UPDATE'] },
  validate: (request) => {
    const before = request.oldObject?.metadata.annotations?.[ANNOTATION_REFUSE];
    const after = request.object?.metadata.annotations?.[ANNOTATION_REFUSE];
    if (before === undefined || after === undefined) return { allowed: true };
    return {
      allowed: false,
      message: before || 'changes to this object are refused (failure injection)',
      field: `metadata.annotations.${ANNOTATION_REFUSE}`,
      code: 422,
    };
  },
};

export const webhookAdmission: readonly AdmissionHook[] = [
  // Cluster API's own webhooks first: what upstream refuses (and defaults) beyond the schemas.
  ...capiWebhookHooks(),
  ...(Object.keys(webhookRules) as WebhookKind[]).map(hookFor),
  refuseHook,
];
