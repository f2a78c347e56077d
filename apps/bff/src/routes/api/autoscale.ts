import {
  ANNOTATION_AUTOSCALER_LAST_UPDATED,
  AUTOSCALER_STATUS_CONFIGMAP,
  AUTOSCALER_STATUS_KEY,
  AUTOSCALER_STATUS_NAMESPACE,
  AutoscaleRequestSchema,
  parseAutoscalerStatus,
  planAutoscale,
  requestedBounds,
  type ClusterAutoscalerView,
  type ConfigMap,
} from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { load as loadYaml } from 'js-yaml';
import { z } from 'zod';
import { notFound } from '../../http/errors';
import {
  ClusterAutoscalerViewSchema,
  ClusterParams,
  DryRunQuery,
  errorResponses,
  MutationResultSchema,
  PlanSchema,
  PoolParams,
} from '../../http/schemas';
import { DEFAULT_MAX_WORKLOAD_WATCHES } from '../../nodes/workload-nodes';
import { mayAttempt, readerOf, workerPoolCheck } from './access';
import { workerDeploymentOf } from './pool-target';
import { replyWith } from './mutation-reply';

/**
 * The cluster autoscaler's bounds of a worker pool (issue 26 item 2): `POST …/autoscale`
 * (O-AUTOSCALE / O-AUTOSCALE-REMOVE: thin, the planner is the domain's `planAutoscale`, the
 * mutation service previews, applies, rebases or answers 409 and records the audit line), and
 * `GET …/autoscaler`: what the autoscaler itself says, from its status ConfigMap in the workload
 * cluster, read through the cluster's `<cluster>-kubeconfig` Secret as its Nodes are.
 */

/**
 * The status document is text the workload cluster's autoscaler (or anyone allowed to write that
 * ConfigMap) writes: parsed in linear time, nesting bounded, no aliases, as the versions catalog.
 */
const parseYaml = (text: string): unknown => loadYaml(text, { maxDepth: 32, maxAliases: 0 });

/** The largest status the console reads; upstream truncates its own at 1 MB (maxStatusBytes). */
const MAX_STATUS_CHARS = 1_048_576;

export function autoscalerViewOf(
  secret: string,
  configMap: ConfigMap | undefined,
): ClusterAutoscalerView {
  const where = `${AUTOSCALER_STATUS_NAMESPACE}/${AUTOSCALER_STATUS_CONFIGMAP}`;
  if (!configMap) return { status: 'ok', secret, configMap: where, found: false };
  const lastUpdated = configMap.metadata.annotations?.[ANNOTATION_AUTOSCALER_LAST_UPDATED];
  const base = {
    status: 'ok' as const,
    secret,
    configMap: where,
    found: true,
    ...(lastUpdated !== undefined ? { lastUpdated } : {}),
  };
  const data = configMap.data;
  const text =
    data && Object.hasOwn(data, AUTOSCALER_STATUS_KEY) ? data[AUTOSCALER_STATUS_KEY] : undefined;
  if (typeof text !== 'string') {
    return { ...base, error: `${where} has no key ${AUTOSCALER_STATUS_KEY}` };
  }
  if (text.length > MAX_STATUS_CHARS) {
    return { ...base, error: `${where} is larger than ${String(MAX_STATUS_CHARS)} characters` };
  }
  const parsed = parseAutoscalerStatus(text, parseYaml);
  return 'document' in parsed
    ? { ...base, document: parsed.document }
    : { ...base, error: parsed.error };
}

const autoscale: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const stores = app.cache.stores;
  const mutationLimit = { max: app.config.mutationRatePerMinute, timeWindow: 60_000 };
  /** The last view per cluster, kept while its ConfigMap's version holds (many tabs poll it). */
  const views = new Map<string, { version: string; view: ClusterAutoscalerView }>();

  const deploymentOf = (namespace: string, cluster: string, pool: string) =>
    workerDeploymentOf(stores.MachineDeployment, namespace, cluster, pool, {
      rule: 'R-MD-5',
      message: 'the control plane is not scaled by the cluster autoscaler: its replicas are fixed',
    });

  app.post(
    '/clusters/:namespace/:cluster/nodepools/:pool/autoscale',
    {
      config: { rateLimit: mutationLimit },
      preValidation: mayAttempt(app, workerPoolCheck('patch')),
      schema: {
        tags: ['nodepools'],
        summary:
          'O-AUTOSCALE / O-AUTOSCALE-REMOVE: the cluster autoscaler’s min/max-size annotations of a worker pool’s MachineDeployment, set (both numbers) or removed (both null) (R-AS-1..6)',
        params: PoolParams,
        querystring: DryRunQuery,
        body: AutoscaleRequestSchema,
        response: { 200: PlanSchema.or(MutationResultSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { namespace, cluster, pool } = request.params;
      const principal = await app.principalOf(request);
      deploymentOf(namespace, cluster, pool);
      const outcome = await app.mutations.run(
        principal,
        {
          action: requestedBounds(request.body) ? 'nodepool.autoscale' : 'nodepool.autoscaleRemove',
          namespace,
          cluster,
          request: request.body,
          plan: (req, ctx) =>
            planAutoscale(req, { machineDeployment: deploymentOf(namespace, cluster, pool) }, ctx),
        },
        request.query.dryRun,
      );
      return replyWith(reply, outcome);
    },
  );

  app.get(
    '/clusters/:namespace/:cluster/autoscaler',
    {
      schema: {
        tags: ['clusters'],
        summary:
          'The cluster autoscaler’s status as the workload cluster’s kube-system/cluster-autoscaler-status says it (read through its <cluster>-kubeconfig Secret): each node group’s health, min/max/target and last scale-up/down; or why it cannot be shown',
        params: ClusterParams,
        response: {
          200: ClusterAutoscalerViewSchema,
          304: z.null().describe('Not modified: the ETag given in If-None-Match still holds'),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { namespace, cluster } = request.params;
      const principal = await readerOf(app, request, namespace);
      if (!app.views.current(namespace, cluster).exists()) {
        throw notFound(`cluster ${namespace}/${cluster} not found`, 'cluster');
      }
      const answer = await app.workloadNodes.autoscalerStatus(principal, namespace, cluster);
      if ('view' in answer) return answer.view;
      // Polled by every open cluster page: an unchanged ConfigMap is a 304 (rights checked above).
      const etag = `W/"${answer.version}"`;
      void reply.header('etag', etag).header('cache-control', 'private, no-cache');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      const key = `${namespace}/${cluster}`;
      const kept = views.get(key);
      if (kept?.version === answer.version && kept.view.status === 'ok') {
        if (kept.view.secret === answer.secret) return kept.view;
      }
      const view = autoscalerViewOf(answer.secret, answer.configMap);
      views.delete(key);
      views.set(key, { version: answer.version, view });
      // As many as the workload watches that can run; the least recently read goes first.
      for (const k of views.keys()) {
        if (views.size <= DEFAULT_MAX_WORKLOAD_WATCHES) break;
        views.delete(k);
      }
      return view;
    },
  );
  return Promise.resolve();
};

export default autoscale;
