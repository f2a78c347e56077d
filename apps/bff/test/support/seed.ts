import type { EmbeddedCluster } from '@dcs/simulator';
import {
  aBootstrapTemplate,
  aCluster,
  aDCSMachine,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineSet,
  aMachineTemplate,
  anIpEntry,
  anIpPool,
  aProviderDeployment,
  aVersionsCatalog,
  controlPlaneLabels,
} from '@dcs/domain/testing';

/**
 * Demo data for integration tests, written through the embedded API server like any client
 * would: one cluster `demo` with its control plane (3 machines) and one worker pool `demo-md-0`
 * (3 machines) on the IP pool `demo-worker-pool` (6 entries), the versions catalog and the DCS
 * provider's Deployment.
 */

type ServerClient = EmbeddedCluster['server']['client'];
type KubeObject = Parameters<ServerClient['create']>[0];

type Obj = { metadata: Record<string, unknown>; status?: unknown } & Record<string, unknown>;

/** What the server fills in must not be sent on create. */
function forCreate(o: Obj): KubeObject {
  const {
    uid: _u,
    resourceVersion: _r,
    generation: _g,
    creationTimestamp: _c,
    ...metadata
  } = o.metadata;
  const { status: _s, ...rest } = o;
  return { ...rest, metadata } as KubeObject;
}

export async function put(client: ServerClient, o: Obj): Promise<KubeObject> {
  const body = forCreate(o);
  const created = await client.create(body);
  if (o.status === undefined) return created;
  return client.update(
    { ...created, apiVersion: body.apiVersion, kind: body.kind, status: o.status },
    { subresource: 'status' },
  );
}

export interface SeedOptions {
  /** Worker machines of demo-md-0 (default 3). */
  workers?: number;
  /** Entries of the IP pool (default 6). */
  entries?: number;
}

export async function seedDemo(client: ServerClient, o: SeedOptions = {}): Promise<void> {
  const workers = o.workers ?? 3;
  await put(client, aVersionsCatalog());
  const provider = aProviderDeployment('1.0.16') as Obj & {
    spec?: { template?: Record<string, unknown> };
  };
  const app = { app: 'capdcs-controller-manager' };
  await put(client, {
    ...provider,
    metadata: { ...provider.metadata, namespace: 'cpaas-system' },
    spec: {
      ...provider.spec,
      selector: { matchLabels: app },
      template: { ...provider.spec?.template, metadata: { labels: app } },
    },
  });
  await put(client, aCluster());
  await put(client, aKubeadmControlPlane());
  await put(client, aMachineTemplate({ metadata: { name: 'demo-control-plane-template' } }));
  await put(client, aMachineTemplate());
  await put(client, aBootstrapTemplate());
  await put(client, anIpPool({ entries: o.entries ?? 6 }));
  await put(
    client,
    aMachineDeployment({
      spec: { replicas: workers },
      status: {
        replicas: workers,
        readyReplicas: workers,
        updatedReplicas: workers,
        availableReplicas: workers,
      },
    }),
  );
  await put(client, aMachineSet({ spec: { replicas: workers } }));
  for (let i = 0; i < workers; i++) {
    const name = `demo-md-0-abc12-m${String(i)}`;
    await put(client, aMachine({ metadata: { name } }));
    await put(
      client,
      aDCSMachine({
        metadata: { name },
        status: { networkConfig: { ip: anIpEntry(i + 1).ip } },
      }),
    );
  }
  for (let i = 0; i < 3; i++) {
    const name = `demo-control-plane-c${String(i)}`;
    await put(client, aMachine({ metadata: { name, labels: controlPlaneLabels() } }));
  }
}
