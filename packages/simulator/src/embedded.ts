import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  startApiServer,
  type AnyKindRegistration,
  type ApiServer,
  type KindRegistration,
  type KubeObject,
  type OidcOptions,
  writePrivateFile,
} from '@dcs/apiserver';
import { DEFAULT_NAMESPACE, isVersionedGroup, kindTable } from '@dcs/domain';
import { webhookAdmission } from './admission';
import { registrationFor } from './capi/release-kinds';
import {
  CAPI_RELEASES,
  capiVersionsOf,
  DEFAULT_CAPI_RELEASE,
  type CapiRelease,
} from './capi/releases';
import { crdKinds, servedSchemaOf } from './crds';
import { OIDC_GROUPS_PREFIX, OPERATORS_GROUP, VIEWERS_GROUP } from './oidc/provider';

/**
 * The embedded management cluster: the in-memory API server with the Cluster API and DCS kinds of
 * `domain`, the webhook rules, two users (an operator with full rights and a read-only viewer),
 * and the namespace the product lives in.
 */

export interface EmbeddedClusterOptions {
  host?: string;
  /** 0 = a free port. */
  port?: number;
  /** HTTPS with a generated CA (default); false serves plain HTTP on loopback. */
  tls?: boolean;
  /** Persist every acknowledged write here and resume from it on the next start. */
  statePath?: string;
  /** Tokens of the two users; random when not given. */
  operatorToken?: string;
  viewerToken?: string;
  bookmarkIntervalMs?: number;
  /** Watch events kept per kind (the API server's default: 10,000); older resourceVersions get 410. */
  watchHistorySize?: number;
  /** How long an Event is kept after its last write (kube-apiserver's `--event-ttl`; default 1 h, 0 = forever). */
  eventTtlMs?: number;
  /**
   * The kinds served, by default {@link kindRegistrations}: a test may serve another schema for
   * a kind (a real provider's CRD with fields the domain does not model).
   */
  kinds?: AnyKindRegistration[];
  /**
   * The Cluster API release the cluster serves the Cluster API kinds as (issue 23; default
   * {@link DEFAULT_CAPI_RELEASE}): `v1.10` v1beta1 only, `v1.14` both (v1beta2 stored), `v1.16`
   * v1beta2 only. Ignored when `kinds` is given.
   */
  capiRelease?: CapiRelease;
  /**
   * Trust an OpenID provider as kube-apiserver's `--oidc-*` flags do (the embedded provider's
   * `oidcTrustFlags`); its groups `oidc:dcs-operators` and `oidc:dcs-viewers` are bound to the
   * operator's and the viewer's roles.
   */
  oidc?: OidcOptions;
}

export interface EmbeddedCluster {
  server: ApiServer;
  /** The Cluster API release it stands for, and the versions a client of that release speaks. */
  readonly capiRelease: CapiRelease;
  readonly capiVersions: Readonly<Record<string, string>>;
  /**
   * Upgrades the Cluster API kinds to `release` while the cluster serves, as `clusterctl upgrade`
   * does on a real one: each CRD is replaced by the release's (served versions, storage version,
   * schemas and conversion; the kind's open watches end, as a CRD update ends them), then every
   * object stored in an older version is rewritten in the new storage version (clusterctl's CRD
   * migration), so that a later release may stop serving the old one. Objects, names and
   * resourceVersions carry over; a client that resumes its watch misses nothing. Only forward:
   * Cluster API does not support a downgrade. Resolves with the number of objects rewritten.
   * Controllers of the older release are the caller's to restart in the new release's versions.
   */
  upgradeCapi(
    release: CapiRelease,
  ): Promise<{ from: CapiRelease; to: CapiRelease; migrated: number }>;
  url: string;
  operatorToken: string;
  viewerToken: string;
  /** A kubeconfig with the contexts `sim-operator` (current) and `sim-viewer`. */
  kubeconfig: string;
  close(): Promise<void>;
}

export const OPERATOR_USER = 'sim-operator';
export const VIEWER_USER = 'sim-viewer';
const VIEWER_ROLE = 'dcs-console-viewer';

/** Fields kubectl may select on besides name and namespace (`kubectl get ma --field-selector status.phase=Running`). */
const selectableFields: Partial<Record<string, readonly string[]>> = {
  Machine: ['status.phase', 'spec.clusterName'],
  MachineSet: ['spec.clusterName'],
  MachineDeployment: ['spec.clusterName'],
};

/** The kinds the embedded cluster serves, as Cluster API `release` serves its own. */
export function kindRegistrations(release: 'v1.10'): KindRegistration[];
export function kindRegistrations(release?: CapiRelease): AnyKindRegistration[];
export function kindRegistrations(
  release: CapiRelease = DEFAULT_CAPI_RELEASE,
): AnyKindRegistration[] {
  return crdKinds.map((kind) => {
    const base: KindRegistration = {
      ...kindTable[kind],
      openAPIV3Schema: servedSchemaOf(kind),
      ...(selectableFields[kind] ? { selectableFields: selectableFields[kind] } : {}),
    };
    return registrationFor(base, release);
  });
}

/** The groups of the embedded provider's users, as the API server names them (`oidc:` prefix). */
export const OIDC_OPERATORS = `${OIDC_GROUPS_PREFIX}${OPERATORS_GROUP}`;
export const OIDC_VIEWERS = `${OIDC_GROUPS_PREFIX}${VIEWERS_GROUP}`;

const groupBinding = (name: string, role: string, group: string): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: group }],
});

/** Read-only rights on everything the console shows; like Kubernetes' `view`, no Secrets. */
function viewerRbac(): KubeObject[] {
  const read = ['get', 'list', 'watch'];
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: VIEWER_ROLE },
      rules: [
        {
          apiGroups: [''],
          resources: ['namespaces', 'configmaps', 'events', 'serviceaccounts'],
          verbs: read,
        },
        { apiGroups: ['apps'], resources: ['deployments'], verbs: read },
        // Events of the newer API too, as upstream's `view` grants (the console's timeline).
        { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: read },
        {
          apiGroups: [
            'cluster.x-k8s.io',
            'controlplane.cluster.x-k8s.io',
            'bootstrap.cluster.x-k8s.io',
            'infrastructure.cluster.x-k8s.io',
          ],
          resources: ['*'],
          verbs: read,
        },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: VIEWER_ROLE },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: VIEWER_ROLE },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: VIEWER_USER }],
    },
  ];
}

const token = () => randomBytes(24).toString('base64url');

/** What a `--state` cluster keeps besides its objects (the API server keeps its CA and keys). */
interface ClusterFile {
  v: 1;
  operatorToken: string;
  viewerToken: string;
  /** The port it last listened on: reused when no port is asked for, so kubeconfigs still work. */
  port: number;
}

function readClusterFile(path: string): ClusterFile | undefined {
  if (!existsSync(path)) return undefined;
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<ClusterFile> | null;
  if (
    raw?.v !== 1 ||
    typeof raw.operatorToken !== 'string' ||
    typeof raw.viewerToken !== 'string' ||
    typeof raw.port !== 'number'
  ) {
    throw new Error(`${path}: not a cluster file of the simulator`);
  }
  return raw as ClusterFile;
}

function isAddressInUse(e: unknown): boolean {
  return (e as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

/**
 * The embedded cluster. With `statePath`, a restart is the same cluster: objects, CA and serving
 * key (kept by the API server), the two users' tokens and the port (kept in
 * `<state>.cluster.json`, mode 0600), so a kubeconfig written before the restart still works.
 * Two processes cannot serve one state file: the second start fails with StateLockedError.
 */
export async function startEmbeddedCluster(
  o: EmbeddedClusterOptions = {},
): Promise<EmbeddedCluster> {
  const clusterPath = o.statePath ? `${o.statePath}.cluster.json` : undefined;
  const kept = clusterPath ? readClusterFile(clusterPath) : undefined;
  const operatorToken = o.operatorToken ?? kept?.operatorToken ?? token();
  const viewerToken = o.viewerToken ?? kept?.viewerToken ?? token();
  const askedPort = o.port ?? 0;
  const start = (port: number) =>
    startApiServer({
      host: o.host ?? '127.0.0.1',
      port,
      tls: o.tls ?? true,
      kinds: o.kinds ?? kindRegistrations(o.capiRelease),
      admission: webhookAdmission,
      tokens: [
        { token: operatorToken, user: OPERATOR_USER, groups: ['system:masters'] },
        { token: viewerToken, user: VIEWER_USER, groups: [] },
      ],
      namespaces: [DEFAULT_NAMESPACE],
      ...(o.statePath ? { statePath: o.statePath } : {}),
      ...(o.bookmarkIntervalMs ? { bookmarkIntervalMs: o.bookmarkIntervalMs } : {}),
      ...(o.watchHistorySize ? { watchHistorySize: o.watchHistorySize } : {}),
      ...(o.eventTtlMs !== undefined ? { eventTtlMs: o.eventTtlMs } : {}),
      ...(o.oidc ? { oidc: o.oidc } : {}),
    });
  let server: ApiServer;
  if (askedPort === 0 && kept?.port) {
    try {
      server = await start(kept.port);
    } catch (e) {
      if (!isAddressInUse(e)) throw e;
      // Taken by something else: a new port (kubeconfigs from before must be rewritten).
      server = await start(0);
    }
  } else server = await start(askedPort);
  if (clusterPath) {
    const file: ClusterFile = { v: 1, operatorToken, viewerToken, port: server.port };
    writePrivateFile(clusterPath, `${JSON.stringify(file, null, 2)}\n`);
  }
  const oidcRbac = o.oidc
    ? [
        groupBinding('dcs-console-oidc-operators', 'cluster-admin', OIDC_OPERATORS),
        groupBinding('dcs-console-oidc-viewers', VIEWER_ROLE, OIDC_VIEWERS),
      ]
    : [];
  for (const obj of [...viewerRbac(), ...oidcRbac]) {
    const ref = { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name ?? '' };
    if (!server.client.get(ref)) await server.client.create(obj);
  }
  const kubeconfig = server.kubeconfig(
    [
      { name: OPERATOR_USER, token: operatorToken, namespace: DEFAULT_NAMESPACE },
      { name: VIEWER_USER, token: viewerToken, namespace: DEFAULT_NAMESPACE },
    ],
    { clusterName: 'dcs-sim', currentContext: OPERATOR_USER },
  );
  let release = o.capiRelease ?? DEFAULT_CAPI_RELEASE;
  let upgrading: Promise<unknown> = Promise.resolve();
  const upgrade = async (to: CapiRelease) => {
    const from = release;
    if (o.kinds) throw new Error('a cluster started with its own kinds has no Cluster API release');
    if (CAPI_RELEASES.indexOf(to) < CAPI_RELEASES.indexOf(from))
      throw new Error(`Cluster API ${from} cannot be downgraded to ${to}`);
    if (to === from) return { from, to, migrated: 0 };
    const next = kindRegistrations(to).filter((r) => isVersionedGroup(r.group));
    for (const reg of next) server.updateKind(reg);
    let migrated = 0;
    for (const reg of next) migrated += await server.migrateStorageVersion(reg.group, reg.plural);
    release = to;
    return { from, to, migrated };
  };
  return {
    server,
    url: server.url,
    operatorToken,
    viewerToken,
    kubeconfig,
    get capiRelease() {
      return release;
    },
    get capiVersions() {
      return capiVersionsOf(release);
    },
    // One upgrade at a time: a second waits for the first and starts from where it ended.
    upgradeCapi: (to) => {
      const run = upgrading.then(() => upgrade(to));
      upgrading = run.catch(() => undefined);
      return run;
    },
    close: () => server.close(),
  };
}

/** Writes a file so that a reader never sees it half-written (the launcher waits for it). */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${String(process.pid)}.tmp`;
  await writeFile(tmp, content, { mode: 0o600 });
  await rename(tmp, path);
}
