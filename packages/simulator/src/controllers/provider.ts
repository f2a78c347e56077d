import {
  DEFAULT_NAMESPACE,
  LABEL_APP_VERSION,
  LABEL_PROVIDER,
  PROVIDER_DCS,
  kindTable,
  type Deployment,
} from '@dcs/domain';
import { isAlreadyExists, isNotFound, type KubeClient, type KubeObject } from '../runtime/client';

/**
 * The DCS provider's Deployment, as clusterctl installs it: found by the label
 * `cluster.x-k8s.io/provider=infrastructure-dcs`, its version in `app.kubernetes.io/version` and
 * in the image tag. The console reads it for R-VER-1 (web workflow ≥ 1.0.13) and R-VER-2
 * (pool-managed persistent disks ≥ 1.0.16).
 */

export const DEFAULT_PROVIDER_VERSION = '1.0.16';
export const PROVIDER_DEPLOYMENT_NAME = 'capdcs-controller-manager';
export const PROVIDER_IMAGE = 'registry.alauda.cn:60080/capdcs/cluster-api-provider-dcs';

export function providerDeployment(version: string, namespace = DEFAULT_NAMESPACE): Deployment {
  const labels = {
    [LABEL_PROVIDER]: PROVIDER_DCS,
    [LABEL_APP_VERSION]: version,
    'app.kubernetes.io/name': 'cluster-api-provider-dcs',
    'control-plane': 'controller-manager',
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: PROVIDER_DEPLOYMENT_NAME, namespace, labels },
    spec: {
      replicas: 1,
      selector: {
        matchLabels: { [LABEL_PROVIDER]: PROVIDER_DCS, 'control-plane': 'controller-manager' },
      },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            { name: 'manager', image: `${PROVIDER_IMAGE}:v${version}`, args: ['--leader-elect'] },
          ],
        },
      },
    },
  };
}

/**
 * The namespace exists afterwards, as clusterctl creates the provider's namespace when it installs
 * it: on a fresh API server `cpaas-system` is missing, and every write into it would be a 404.
 * Without the right to create it, the error says what is missing and how to fix it.
 */
export async function ensureNamespace(client: KubeClient, namespace: string): Promise<void> {
  try {
    await client.get(kindTable.Namespace, undefined, namespace);
    return;
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  try {
    await client.create(kindTable.Namespace, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: namespace },
    });
  } catch (e) {
    if (isAlreadyExists(e)) return;
    throw new Error(
      `namespace ${namespace} does not exist and could not be created (${e instanceof Error ? e.message : String(e)}): create it with \`kubectl create namespace ${namespace}\` or give a user who may`,
      { cause: e },
    );
  }
}

/** Creates or updates the provider's Deployment so that it reports `version`, and marks it available. */
export async function ensureProviderDeployment(
  client: KubeClient,
  version: string,
  namespace = DEFAULT_NAMESPACE,
): Promise<void> {
  await ensureNamespace(client, namespace);
  const desired = providerDeployment(version, namespace) as unknown as KubeObject;
  let current: KubeObject;
  try {
    const existing = await client.get(kindTable.Deployment, namespace, PROVIDER_DEPLOYMENT_NAME);
    current = await client.update(kindTable.Deployment, {
      ...existing,
      metadata: {
        ...existing.metadata,
        labels: (desired.metadata as { labels: Record<string, string> }).labels,
      },
      spec: desired.spec,
    });
  } catch (e) {
    if (!isNotFound(e)) throw e;
    current = await client.create(kindTable.Deployment, desired);
  }
  await client.updateStatus(kindTable.Deployment, {
    ...current,
    status: {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
    },
  });
}
