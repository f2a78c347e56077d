import { DEFAULT_NAMESPACE } from '@dcs/domain';
import { ANNOTATION_FAIL } from '../logic/failures';
import {
  bootstrapFilesSecret,
  bootstrapTemplate,
  clusterObjects,
  machineTemplate,
  poolEntries,
  poolHealthCheck,
  versionsCatalog,
  workerPoolObjects,
  type Obj,
} from './objects';

/**
 * The demo management cluster (`--seed demo`, the default of `pnpm start`): two clusters, each
 * with its control-plane pool, and worker pools that together show every case the console
 * handles. See the README ("Demo data") for the list and what each pool demonstrates.
 */

export const DEMO = {
  rollingPool: 'prod-east-batch',
  rollingFrom: 'v1.33.4',
  rollingTo: 'v1.34.1',
  stalledPool: 'dev-west-stall',
  stalledIp: '10.20.3.12',
  fullPool: 'dev-west-full',
} as const;

/** Platform objects every management cluster of this product has: the versions catalog and the DCS credentials. */
export function platformObjects(namespace = DEFAULT_NAMESPACE): Obj[] {
  return [
    versionsCatalog(undefined, namespace) as Obj,
    bootstrapFilesSecret('dcs-kubernetes-1.33-files', 'v1.33.4', namespace),
    bootstrapFilesSecret('dcs-kubernetes-1.34-files', 'v1.34.1', namespace),
    bootstrapFilesSecret('dcs-kubernetes-1.35-files', 'v1.35.0', namespace),
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'dcs-credentials', namespace },
      type: 'Opaque',
      data: {
        username: Buffer.from('k8s-provisioner').toString('base64'),
        password: Buffer.from('simulated-password').toString('base64'),
      },
    },
  ];
}

export function demoObjects(namespace = DEFAULT_NAMESPACE): Obj[] {
  const ns = { namespace };
  return [
    ...platformObjects(namespace),

    // prod-east: Kubernetes 1.34 with 1.35 in the catalog: the control plane shows an upgrade (U-2).
    ...clusterObjects({
      ...ns,
      name: 'prod-east',
      version: 'v1.34.1',
      endpoint: '10.10.0.10',
      controlPlaneEntries: poolEntries({
        subnet: '10.10.0.',
        first: 11,
        count: 4,
        hostnamePrefix: 'prod-east-cp',
      }),
    }),
    // The older document's disk layout: /var/cpaas is a template disk (R-DISK-5, "legacy").
    ...workerPoolObjects({
      ...ns,
      name: 'prod-east-legacy',
      cluster: 'prod-east',
      version: 'v1.34.1',
      replicas: 3,
      maxSurge: 1,
      maxUnavailable: 0,
      legacyCpaasDisk: true,
      entries: poolEntries({
        subnet: '10.10.1.',
        first: 11,
        count: 4,
        hostnamePrefix: 'prod-east-legacy',
      }),
    }),
    // Pool-managed persistent disks and extra NICs, replaced one at a time (R-MD-3: maxSurge 0).
    ...workerPoolObjects({
      ...ns,
      name: 'prod-east-data',
      cluster: 'prod-east',
      version: 'v1.34.1',
      replicas: 3,
      maxSurge: 0,
      maxUnavailable: 1,
      entries: poolEntries({
        subnet: '10.10.2.',
        first: 11,
        count: 3,
        hostnamePrefix: 'prod-east-data',
        persistentCpaas: true,
        extraNicSubnet: '192.168.20.',
      }),
    }),
    // Starts on 1.33 and is upgraded to 1.34 once it is up: a rolling upgrade in progress.
    ...workerPoolObjects({
      ...ns,
      name: DEMO.rollingPool,
      cluster: 'prod-east',
      version: DEMO.rollingFrom,
      replicas: 4,
      maxSurge: 1,
      maxUnavailable: 1,
      patchSecret: 'dcs-kubernetes-1.33-files',
      entries: poolEntries({
        subnet: '10.10.3.',
        first: 11,
        count: 6,
        hostnamePrefix: 'prod-east-batch',
        persistentCpaas: true,
      }),
    }),
    machineTemplate({
      ...ns,
      name: `${DEMO.rollingPool}-${DEMO.rollingTo.replace(/\./g, '-')}`,
      version: DEMO.rollingTo,
      pool: `${DEMO.rollingPool}-ippool`,
    }) as Obj,
    bootstrapTemplate({
      ...ns,
      name: `${DEMO.rollingPool}-kct-${DEMO.rollingTo.replace(/\./g, '-')}`,
      version: DEMO.rollingTo,
    }) as Obj,

    // dev-west: Kubernetes 1.35, the newest in the catalog.
    ...clusterObjects({
      ...ns,
      name: 'dev-west',
      version: 'v1.35.0',
      endpoint: '10.20.0.10',
      controlPlaneEntries: poolEntries({
        subnet: '10.20.0.',
        first: 11,
        count: 4,
        hostnamePrefix: 'dev-west-cp',
      }),
    }),
    // 1.35 with the kubelet patch it needs (R-BOOT-1: imagePullCredentialsVerificationPolicy NeverVerify).
    ...workerPoolObjects({
      ...ns,
      name: 'dev-west-k135',
      cluster: 'dev-west',
      version: 'v1.35.0',
      replicas: 2,
      maxSurge: 1,
      maxUnavailable: 0,
      entries: poolEntries({
        subnet: '10.20.1.',
        first: 11,
        count: 3,
        hostnamePrefix: 'dev-west-k135',
        persistentCpaas: true,
      }),
    }),
    // Its machines are watched by a health check (issue 26 item 1), which goes with the pool.
    poolHealthCheck({ ...ns, cluster: 'dev-west', pool: 'dev-west-k135' }),
    // An IP pool nearly full: 4 of 5 entries claimed (R-POOL-1).
    ...workerPoolObjects({
      ...ns,
      name: DEMO.fullPool,
      cluster: 'dev-west',
      version: 'v1.34.1',
      replicas: 4,
      maxSurge: 1,
      maxUnavailable: 0,
      patchSecret: 'dcs-kubernetes-1.34-files',
      entries: poolEntries({
        subnet: '10.20.2.',
        first: 11,
        count: 5,
        hostnamePrefix: 'dev-west-full',
        persistentCpaas: true,
      }),
    }),
    // T-1: the VM of 10.20.3.12 has its ISO (cdRomFile) but DCS never places it: it stays `creating`.
    ...workerPoolObjects({
      ...ns,
      name: DEMO.stalledPool,
      cluster: 'dev-west',
      version: 'v1.35.0',
      replicas: 2,
      maxSurge: 1,
      maxUnavailable: 0,
      poolAnnotations: { [ANNOTATION_FAIL]: `placement-stall@${DEMO.stalledIp}` },
      entries: poolEntries({
        subnet: '10.20.3.',
        first: 11,
        count: 3,
        hostnamePrefix: 'dev-west-stall',
        persistentCpaas: true,
      }),
    }),
  ];
}
