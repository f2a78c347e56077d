import { DEFAULT_NAMESPACE, type MachineDeployment } from '@dcs/domain';
import { DEMO, demoObjects, platformObjects } from './demo';
import type { Obj } from './objects';

/**
 * `seed(kind, client)`: fills a management cluster. `empty` writes only the platform objects
 * (the versions catalog, the bootstrap files Secrets, the DCS credentials); `demo` adds the demo
 * clusters. Objects that already exist are left alone, so seeding a restarted `--state` cluster
 * is harmless. With `get` and `patch` the demo also starts its rolling upgrade once the pool
 * it upgrades is up (`background`).
 */

export interface SeedClient {
  create(obj: Obj): Promise<unknown>;
  get?(ref: {
    apiVersion: string;
    kind: string;
    namespace: string;
    name: string;
  }): Promise<unknown>;
  /** A JSON merge patch. */
  patch?(
    ref: { apiVersion: string; kind: string; namespace: string; name: string },
    patch: unknown,
  ): Promise<unknown>;
}

export interface SeedOptions {
  namespace?: string;
  /** Start the demo's rolling upgrade when its pool is available (default true when the client can patch). */
  rollingUpgrade?: boolean;
  /** How often to look whether the pool is up (real ms, default 2000). */
  pollMs?: number;
  signal?: AbortSignal;
}

export interface SeedResult {
  created: number;
  existing: number;
  /** The demo's follow-up (the rolling upgrade); resolves when started, or when aborted. */
  background: Promise<void>;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

const isConflict = (e: unknown) =>
  typeof e === 'object' && e !== null && 'code' in e && e.code === 409;

export async function seed(
  kind: 'demo' | 'empty',
  client: SeedClient,
  options: SeedOptions = {},
): Promise<SeedResult> {
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  // The namespace first: on a fresh API server it does not exist, and every object would be a 404.
  const namespaceObject: Obj = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace },
  };
  const objects = [
    namespaceObject,
    ...(kind === 'demo' ? demoObjects(namespace) : platformObjects(namespace)),
  ];
  let created = 0;
  let existing = 0;
  for (const obj of objects) {
    try {
      await client.create(obj);
      created++;
    } catch (e) {
      if (isConflict(e) || /already exists/i.test(String(e))) {
        existing++;
        continue;
      }
      const what = `${obj.kind} ${obj.metadata.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata.name}`;
      throw new Error(
        obj === namespaceObject
          ? `seed ${kind}: namespace ${namespace} is missing and could not be created (${messageOf(e)}); create it with \`kubectl create namespace ${namespace}\``
          : `seed ${kind}: could not create ${what}: ${messageOf(e)}`,
        { cause: e },
      );
    }
  }
  const upgrade =
    kind === 'demo' &&
    (options.rollingUpgrade ?? true) &&
    client.get !== undefined &&
    client.patch !== undefined;
  const background = upgrade ? startRollingUpgrade(client, namespace, options) : Promise.resolve();
  return { created, existing, background };
}

/** O-UPGRADE-K8S on the demo's batch pool: new machine template, bootstrap template and version in one change. */
async function startRollingUpgrade(
  client: SeedClient,
  namespace: string,
  options: SeedOptions,
): Promise<void> {
  const ref = {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'MachineDeployment',
    namespace,
    name: DEMO.rollingPool,
  };
  const suffix = DEMO.rollingTo.replace(/\./g, '-');
  for (;;) {
    if (options.signal?.aborted) return;
    const md = (await client.get?.(ref).catch(() => undefined)) as MachineDeployment | undefined;
    const spec = md?.spec;
    if (spec?.template.spec.version === DEMO.rollingTo) return;
    const replicas = spec?.replicas ?? 0;
    if (
      md?.status?.availableReplicas === replicas &&
      md.status.updatedReplicas === replicas &&
      replicas > 0
    ) {
      await client.patch?.(ref, {
        spec: {
          template: {
            spec: {
              version: DEMO.rollingTo,
              infrastructureRef: { name: `${DEMO.rollingPool}-${suffix}` },
              bootstrap: { configRef: { name: `${DEMO.rollingPool}-kct-${suffix}` } },
            },
          },
        },
      });
      return;
    }
    await new Promise((r) => setTimeout(r, options.pollMs ?? 2000));
  }
}

export { DEMO, demoObjects, platformObjects };
