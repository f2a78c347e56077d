import {
  buildObjectTree,
  LABEL_CLUSTER_NAME,
  renderObjectTree,
  type AnyObject,
  type KindName,
  type ObjectTree,
  type RenderedObjectTree,
} from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors';
import { ClusterParams, errorResponses } from '../../http/schemas';
import { readerOf, VIEW_KINDS } from './access';

/**
 * `GET /clusters/{ns}/{cluster}/tree`: the cluster's object tree as `clusterctl describe cluster`
 * shows it (issue 26, item 5), built by domain from the shared cache, as JSON (the tree, its
 * printed rows and text) or, with `format=text`, the text alone for a support ticket.
 */

/** The tree shows machines' bootstrap objects and the cluster's infrastructure too. */
export const TREE_KINDS: readonly KindName[] = [...VIEW_KINDS, 'KubeadmConfig', 'DCSCluster'];

const flag = z.enum(['true', 'false']).optional();

export const TreeQuery = z.object({
  grouping: flag,
  showMachineSets: flag,
  echo: flag,
  showConditions: z
    .string()
    .max(512)
    .regex(/^[A-Za-z0-9.,/ -]*$/, 'comma-separated: all, kinds or Kind/name')
    .optional(),
  conditions: z.enum(['v1beta2', 'v1beta1']).optional(),
  format: z.enum(['json', 'text']).optional(),
});

const TreeViewSchema = z.looseObject({
  conditions: z.enum(['v1beta2', 'v1beta1']),
  options: z.looseObject({}),
  root: z.looseObject({ id: z.string(), kind: z.string(), name: z.string() }),
  header: z.array(z.string()),
  rows: z.array(
    z.looseObject({ type: z.string(), prefix: z.string(), name: z.string(), node: z.string() }),
  ),
  text: z.string(),
}) as unknown as z.ZodType<ObjectTree & RenderedObjectTree>;

const bool = (v: 'true' | 'false' | undefined) => (v === undefined ? undefined : v === 'true');

const tree: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/clusters/:namespace/:cluster/tree',
    {
      schema: {
        tags: ['clusters'],
        summary:
          'The cluster’s object tree as clusterctl describe cluster shows it (grouping, showConditions, showMachineSets, echo, conditions=v1beta2|v1beta1); format=text for the text alone',
        params: ClusterParams,
        querystring: TreeQuery,
        response: { 200: TreeViewSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { namespace, cluster } = request.params;
      const q = request.query;
      await readerOf(app, request, namespace, TREE_KINDS);
      const stores = app.cache.stores;
      const clusterObject = stores.Cluster.get(namespace, cluster);
      if (!clusterObject) throw notFound(`cluster ${namespace}/${cluster} not found`, 'cluster');
      const key = `${namespace}/${cluster}`;
      const ofCluster = (o: AnyObject) => o.metadata.labels?.[LABEL_CLUSTER_NAME] === cluster;
      const machines = stores.Machine.byIndex('cluster', key);
      const cpRef = clusterObject.spec?.controlPlaneRef;
      const infraRef = clusterObject.spec?.infrastructureRef;
      const controlPlane =
        cpRef?.kind === 'KubeadmControlPlane' && cpRef.name
          ? stores.KubeadmControlPlane.get(namespace, cpRef.name)
          : undefined;
      const infrastructure =
        infraRef?.kind === 'DCSCluster' && infraRef.name
          ? stores.DCSCluster.get(namespace, infraRef.name)
          : undefined;
      const present = <T>(list: (T | undefined)[]) => list.filter((o): o is T => o !== undefined);
      const built = buildObjectTree(
        {
          cluster: clusterObject,
          ...(infrastructure ? { infrastructure } : {}),
          ...(controlPlane ? { controlPlane } : {}),
          machineDeployments: stores.MachineDeployment.byIndex('cluster', key),
          machineSets: stores.MachineSet.inNamespace(namespace).filter(ofCluster),
          machines,
          machineInfrastructure: present(
            machines.map((m) => {
              const ref = m.spec?.infrastructureRef;
              return ref?.kind === 'DCSMachine' && ref.name
                ? stores.DCSMachine.get(namespace, ref.name)
                : undefined;
            }),
          ),
          bootstrapConfigs: present(
            machines.map((m) => {
              const ref = m.spec?.bootstrap.configRef;
              return ref?.kind === 'KubeadmConfig' && ref.name
                ? stores.KubeadmConfig.get(namespace, ref.name)
                : undefined;
            }),
          ),
        },
        {
          ...(bool(q.grouping) !== undefined ? { grouping: bool(q.grouping) } : {}),
          ...(bool(q.showMachineSets) !== undefined
            ? { showMachineSets: bool(q.showMachineSets) }
            : {}),
          ...(bool(q.echo) !== undefined ? { echo: bool(q.echo) } : {}),
          ...(q.showConditions !== undefined ? { showConditions: q.showConditions } : {}),
          ...(q.conditions !== undefined ? { conditions: q.conditions } : {}),
        },
      );
      const rendered = renderObjectTree(built, new Date());
      if (q.format === 'text') {
        return reply
          .type('text/plain; charset=utf-8')
          .serializer((payload) => payload as string)
          .send(rendered.text as unknown as ObjectTree & RenderedObjectTree);
      }
      return { ...built, ...rendered };
    },
  );
  return Promise.resolve();
};

export default tree;
