import {
  RightsSchema,
  type ClusterAutoscalerView,
  type ClusterNodeSummaries,
  type ClusterNodesView,
  type ClusterView,
  type IpPoolView,
  type MachineView,
  type NodePoolView,
  type Plan,
  type RuleIssue,
} from '@dcs/domain';
import { z } from 'zod';
import { BearerToken } from '../auth/bearer';
import { MAX_SESSION_TOKEN_CHARS } from '../auth/sessions';
import type { Rebase } from '../mutations/service';
import type { ExecutionResult } from '../plan/executor';

/**
 * Shapes of the BFF's HTTP API for validation, serialization and the OpenAPI document. Request
 * bodies are domain's schemas (shared with the forms); responses are domain's view models,
 * described here by their identifying fields and passed through whole (loose objects).
 */

const dns1123 = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'a Kubernetes name (DNS-1123)');

export const NamespaceParams = z.object({ namespace: dns1123 });
export const ClusterParams = z.object({ namespace: dns1123, cluster: dns1123 });
export const PoolParams = ClusterParams.extend({ pool: dns1123 });
export const IpPoolParams = z.object({ namespace: dns1123, name: dns1123 });
export const ObjectParams = z.object({
  namespace: dns1123,
  kind: z.string().min(1).max(63),
  name: dns1123,
});

export const DryRunQuery = z.object({
  dryRun: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

export const StreamQuery = z.object({
  cluster: z.string().regex(/^[a-z0-9][-a-z0-9.]*\/[a-z0-9][-a-z0-9.]*$/, 'namespace/name'),
});

/**
 * A loose schema typed as the domain's view model: the OpenAPI document shows the identifying
 * fields, serialization passes the whole view through, and handlers are checked against the
 * real interface (which has no index signature, so the loose type alone would not accept it).
 */
function viewSchema<T>(shape: z.ZodRawShape): z.ZodType<T> {
  return z.looseObject(shape) as unknown as z.ZodType<T>;
}

export const RuleIssueSchema = z.object({
  rule: z.string(),
  path: z.string(),
  severity: z.enum(['error', 'warning']),
  messageKey: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  message: z.string(),
});

export const ErrorSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  details: z.array(RuleIssueSchema),
});

export const ClusterViewSchema = viewSchema<ClusterView>({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
});
export const NodePoolViewSchema = viewSchema<NodePoolView>({
  id: z.string(),
  kind: z.enum(['control-plane', 'worker']),
  name: z.string(),
  cluster: z.string(),
  namespace: z.string(),
});
/** Issue 12: the workload cluster's Nodes (or their summaries) for this user, or why there are none. */
export const ClusterNodesViewSchema = viewSchema<ClusterNodesView | ClusterNodeSummaries>({
  status: z.enum(['ok', 'forbidden', 'no-kubeconfig', 'unreachable', 'pending']),
  secret: z.string(),
  message: z.string().optional(),
  since: z.string().optional(),
  nodes: z.array(z.looseObject({ name: z.string(), state: z.string() })).optional(),
});
/** Issue 26 item 2: the cluster autoscaler's status in the workload cluster, or why there is none. */
export const ClusterAutoscalerViewSchema = viewSchema<ClusterAutoscalerView>({
  status: z.enum(['ok', 'forbidden', 'no-kubeconfig', 'unreachable', 'pending']),
  secret: z.string(),
  message: z.string().optional(),
  since: z.string().optional(),
  configMap: z.string().optional(),
  found: z.boolean().optional(),
  lastUpdated: z.string().optional(),
  error: z.string().optional(),
  document: z
    .looseObject({
      format: z.enum(['yaml', 'text']),
      nodeGroups: z.array(z.looseObject({ name: z.string() })),
    })
    .optional(),
});
export const MachineViewSchema = viewSchema<MachineView>({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  phase: z.string(),
});
export const IpPoolViewSchema = viewSchema<IpPoolView>({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  total: z.number(),
  free: z.number(),
});
export const PlanSchema = viewSchema<Plan>({
  operation: z.string(),
  namespace: z.string(),
  target: z.looseObject({ kind: z.string(), name: z.string() }),
  steps: z.array(z.looseObject({ verb: z.string(), kind: z.string(), name: z.string() })),
  kubectl: z.array(z.string()),
  issues: z.array(RuleIssueSchema as unknown as z.ZodType<RuleIssue>),
  diffs: z.array(z.looseObject({})),
  effects: z.looseObject({}),
  /** Preview only: the API server's dry-run verdict per step (domain's verdict.ts). */
  verdict: z
    .looseObject({
      ok: z.boolean(),
      steps: z.array(
        z.looseObject({
          index: z.number(),
          status: z.enum(['accepted', 'refused', 'unjudged']),
          sequence: z.enum(['in-order', 'alone']),
        }),
      ),
    })
    .optional(),
});

export const MutationResultSchema = viewSchema<{
  plan: Plan;
  execution: ExecutionResult;
  rebased: Rebase[];
  verification?: unknown;
}>({
  plan: PlanSchema,
  execution: z.looseObject({ ok: z.boolean(), steps: z.array(z.looseObject({})) }),
  rebased: z.array(
    z.looseObject({ kind: z.string(), name: z.string(), from: z.string(), to: z.string() }),
  ),
});

/** `GET …/context`: the ValidationContext (passed through whole) and the user's rights. */
export const ClusterContextSchema = z.looseObject({
  namespace: z.string(),
  clusterName: z.string(),
  permissions: RightsSchema,
  user: z.object({ username: z.string(), groups: z.array(z.string()) }),
});

export const SessionSchema = z.object({
  authenticated: z.boolean(),
  mode: z.enum(['local', 'token', 'oidc']),
  user: z
    .object({
      username: z.string(),
      groups: z.array(z.string()),
      /**
       * OIDC mode (issue 27): the provider's claims and how the API server maps them (its
       * --oidc-username-claim and friends), for the user menu. Never a token.
       */
      sso: z
        .object({
          issuer: z.string(),
          subject: z.string(),
          name: z.string().optional(),
          email: z.string().optional(),
          usernameClaim: z.string(),
          usernameClaimValue: z.string().optional(),
          usernamePrefix: z.string(),
          groupsClaim: z.string().optional(),
          groupsClaimValues: z.array(z.string()),
          groupsPrefix: z.string(),
          /** When the presented token expires; the BFF refreshes it before then. */
          tokenExpiresAt: z.string(),
        })
        .optional(),
      /**
       * Whether the API server said who this is. False in local mode while it cannot be asked
       * (`username` is then `unknown`); the web asks again until it is true (issue 25).
       */
      confirmed: z.boolean(),
    })
    .optional(),
  csrfToken: z.string(),
  expiresAt: z.string().optional(),
  /** The stream event-id epoch of the replica that answered (diagnostics). */
  epoch: z.string(),
});

/** OIDC mode's sign-out: the provider's end-session page to visit (RP-initiated logout). */
export const SignOutSchema = z.object({ logoutUrl: z.string() });

/**
 * A token longer than a session cookie can carry (auth/sessions.ts: browsers keep cookies of at
 * most MAX_COOKIE_BYTES) is refused, naming the limit, before the API server is asked.
 */
export const SignInBody = z.object({ token: BearerToken.max(MAX_SESSION_TOKEN_CHARS) });

export const errorResponses = {
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
  404: ErrorSchema,
  409: ErrorSchema,
  422: ErrorSchema,
  429: ErrorSchema,
  502: ErrorSchema,
  503: ErrorSchema,
} as const;
