import { CONTROL_PLANE_POOL_ID, planDiskMigration, type DiskMigrationPlan } from '@dcs/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError, issue, notFound } from '../../http/errors';
import { errorResponses, PoolParams } from '../../http/schemas';
import { readerOf } from './access';

/**
 * R-DISK-5 (issue 12): the guided migration of a worker pool from the legacy disk layout to
 * pool-managed persistent disks. Read-only guidance (domain's planDiskMigration says why): each
 * step names the console operation that carries it out with its own dry-run preview, and the
 * kubectl commands that operation would send.
 */

const DiskMigrationPlanSchema = z.looseObject({
  pool: z.string(),
  namespace: z.string(),
  legacy: z.boolean(),
  applies: z.literal(false),
  readOnlyReason: z.looseObject({ messageKey: z.string(), message: z.string() }),
  steps: z.array(
    z.looseObject({
      id: z.string(),
      status: z.enum(['done', 'todo', 'blocked']),
      kubectl: z.array(z.string()),
    }),
  ),
}) as unknown as z.ZodType<DiskMigrationPlan>;

const diskMigration: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const stores = app.cache.stores;

  app.get(
    '/clusters/:namespace/:cluster/nodepools/:pool/disk-migration',
    {
      schema: {
        tags: ['nodepools'],
        summary:
          'R-DISK-5: the steps that move /var/cpaas from the machine template to the IP pool’s persistent disks (read-only guidance)',
        params: PoolParams,
        response: { 200: DiskMigrationPlanSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, cluster, pool } = request.params;
      const principal = await readerOf(app, request, namespace);
      if (pool === CONTROL_PLANE_POOL_ID) {
        throw new HttpError(
          400,
          'ControlPlanePool',
          'the disk migration applies to worker pools only: the control plane keeps no /var/cpaas in an IP pool',
          [
            issue(
              'R-DISK-5',
              'pool',
              'bff.pool.controlPlane',
              'this operation applies to worker pools only',
            ),
          ],
        );
      }
      const md = stores.MachineDeployment.get(namespace, pool);
      if (md?.spec?.clusterName !== cluster)
        throw notFound(`node pool ${pool} not found in ${namespace}/${cluster}`, 'pool');
      const template = stores.DCSMachineTemplate.get(
        namespace,
        md.spec.template.spec.infrastructureRef.name ?? '',
      );
      const ipName = template?.spec?.template.spec.ipHostPoolRef.name;
      const ipPool = ipName ? stores.DCSIpHostnamePool.get(namespace, ipName) : undefined;
      const ctx = await app.mutations.context(principal, namespace, cluster);
      return planDiskMigration({ machineDeployment: md, machineTemplate: template, ipPool }, ctx);
    },
  );
  return Promise.resolve();
};

export default diskMigration;
