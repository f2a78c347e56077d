import { readFileSync, writeSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunningControllers } from '../controllers/start';
import { parseFailureRule, type FailureRule } from '../logic/failures';
import { CAPI_RELEASES, DEFAULT_CAPI_RELEASE, isCapiRelease } from '../capi/releases';

/**
 * `pnpm sim`: the embedded management cluster, serving the Cluster API kinds as `--capi-release`
 * (v1.10, v1.14 — the default — or v1.16) does (issue 23). Prints its URL and writes a kubeconfig with the
 * contexts `sim-operator` (current, full rights) and `sim-viewer` (read-only). The kubeconfig is
 * written only once the server is ready and seeded, so a launcher may wait for the file.
 * SIGUSR2 upgrades Cluster API to the next release while it runs (`upgradeToNext`).
 */

/** kube-apiserver's `--oidc-*` flags (@dcs/apiserver's OIDC_FLAGS, loaded only after the check). */
const OIDC_FLAGS = [
  'oidc-issuer-url',
  'oidc-client-id',
  'oidc-username-claim',
  'oidc-username-prefix',
  'oidc-groups-claim',
  'oidc-groups-prefix',
  'oidc-ca-file',
  'oidc-signing-algs',
  'oidc-required-claim',
] as const;

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    http: { type: 'boolean', default: false },
    'kubeconfig-out': { type: 'string', default: '.sim/kubeconfig' },
    seed: { type: 'string', default: 'demo' },
    'random-seed': { type: 'string', default: '1' },
    'no-controllers': { type: 'boolean', default: false },
    'time-scale': { type: 'string', default: '1' },
    'provider-version': { type: 'string' },
    fail: { type: 'string', multiple: true, default: [] },
    state: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    'capi-release': { type: 'string', default: DEFAULT_CAPI_RELEASE },
    // Issue 27: an embedded OpenID provider with demo users, trusted by the cluster.
    oidc: { type: 'boolean', default: false },
    'oidc-port': { type: 'string', default: '0' },
    'oidc-redirect-uri': { type: 'string', multiple: true, default: [] },
    'oidc-post-logout-redirect-uri': { type: 'string', multiple: true, default: [] },
    // kube-apiserver's flags, to trust the embedded provider differently or another one.
    ...Object.fromEntries(OIDC_FLAGS.map((f) => [f, { type: 'string' as const }])),
  },
  strict: true,
});

function fail(message: string): never {
  process.stderr.write(`sim: ${message}\n`);
  process.exit(2);
}

// pnpm runs package scripts in the package's folder; paths are the user's, relative to where they typed.
const userDir = process.env.INIT_CWD ?? process.cwd();
const fromUser = (p: string) => (isAbsolute(p) ? p : resolve(userDir, p));

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be 0–65535, got ${values.port}`);
const seedKind = values.seed;
if (seedKind !== 'demo' && seedKind !== 'empty')
  fail(`--seed must be demo or empty, got ${seedKind}`);
const timeScale = Number(values['time-scale']);
if (!(timeScale > 0)) fail(`--time-scale must be a positive number, got ${values['time-scale']}`);
const randomSeed = Number(values['random-seed']);
if (!Number.isInteger(randomSeed))
  fail(`--random-seed must be an integer, got ${values['random-seed']}`);
const providerVersion = values['provider-version'];
if (providerVersion !== undefined && !/^v?\d+\.\d+\.\d+/.test(providerVersion)) {
  fail(`--provider-version must look like 1.0.16, got ${providerVersion}`);
}
const capiRelease = values['capi-release'];
if (!isCapiRelease(capiRelease))
  fail(`--capi-release must be one of ${CAPI_RELEASES.join(', ')}, got ${capiRelease}`);
const oidcPort = Number(values['oidc-port']);
if (!Number.isInteger(oidcPort) || oidcPort < 0 || oidcPort > 65535)
  fail(`--oidc-port must be 0–65535, got ${values['oidc-port']}`);
let failures: FailureRule[] = [];
try {
  failures = values.fail.map(parseFailureRule);
} catch (e) {
  fail((e as Error).message);
}

// DCS_CHECK_ARGS=1: the command line is parsed and checked, nothing starts (the README commands
// test). The cluster's modules are loaded only after it, so that a check costs none of them.
if (process.env.DCS_CHECK_ARGS === '1') {
  writeSync(1, `args ok: ${JSON.stringify(values)}\n`);
  process.exit(0);
}
const [
  { StateLockedError },
  { loadKubeConfig },
  { startControllers },
  { startEmbeddedCluster, writeFileAtomic },
  { createClock },
  { seed },
  { seedClientInProcess },
] = await Promise.all([
  import('@dcs/apiserver'),
  import('../runtime/kubeconfig'),
  import('../controllers/start'),
  import('../embedded'),
  import('../logic/clock'),
  import('../seed'),
  import('../seed/clients'),
]);

const { startEmbeddedOidcProvider, oidcTrustFlags } = await import('../oidc/provider');
const { oidcOptionsFromFlags } = await import('@dcs/apiserver');
const op = values.oidc
  ? await startEmbeddedOidcProvider({
      port: oidcPort,
      redirectUris: values['oidc-redirect-uri'],
      postLogoutRedirectUris: values['oidc-post-logout-redirect-uri'],
    })
  : undefined;
const givenFlags = Object.fromEntries(
  OIDC_FLAGS.flatMap((f) => {
    const v = (values as Record<string, unknown>)[f];
    return typeof v === 'string' ? [[f, v]] : [];
  }),
);
let oidc;
try {
  oidc = oidcOptionsFromFlags({ ...(op ? oidcTrustFlags(op.issuer) : {}), ...givenFlags }, (f) =>
    readFileSync(fromUser(f), 'utf8'),
  );
} catch (e) {
  fail((e as Error).message);
}

const cluster = await startEmbeddedCluster({
  host: values.host,
  ...(oidc ? { oidc } : {}),
  port,
  tls: !values.http,
  capiRelease,
  ...(values.state ? { statePath: fromUser(values.state) } : {}),
}).catch((e: unknown) => {
  // Another sim serves this state file: say which, instead of a stack trace.
  if (e instanceof StateLockedError) fail(e.message);
  throw e;
});
const clock = createClock({ timeScale });
const abort = new AbortController();
const seeded = await seed(
  seedKind,
  seedClientInProcess(cluster.server.client, () => cluster.capiVersions),
  {
    signal: abort.signal,
  },
);
// The demo's later steps (its rolling upgrade) must never take the cluster down with them.
seeded.background.catch((e: unknown) => {
  process.stderr.write(`sim: the demo seed's background step failed: ${String(e)}\n`);
});

const runControllers = async (): Promise<RunningControllers> =>
  startControllers({
    kubeconfig: await loadKubeConfig({ text: cluster.kubeconfig }),
    clock,
    options: {
      randomSeed,
      failures,
      ...(providerVersion ? { providerVersion: providerVersion.replace(/^v/, '') } : {}),
      ...(values.quiet ? { log: () => undefined } : {}),
    },
  });
let controllers: RunningControllers | undefined;
if (!values['no-controllers']) controllers = await runControllers();

const kubeconfigPath = fromUser(values['kubeconfig-out']);
await writeFileAtomic(kubeconfigPath, cluster.kubeconfig);

process.stdout.write(
  [
    `sim: ready ${cluster.url} kubeconfig=${kubeconfigPath}`,
    `sim: seed ${seedKind}: ${String(seeded.created)} objects created, ${String(seeded.existing)} already there`,
    `sim: controllers ${controllers ? `running at ${String(timeScale)}x simulated time` : 'off'}`,
    `sim: operator token ${cluster.operatorToken}`,
    `sim: viewer token   ${cluster.viewerToken}`,
    ...(op
      ? [
          `sim: oidc issuer ${op.issuer} client ${op.clientId}`,
          `sim: oidc users ${op.users.map((u) => `${u.login} (password ${u.password})`).join(', ')}`,
        ]
      : oidc
        ? [`sim: oidc trusting ${oidc.issuerUrl} client ${oidc.clientId}`]
        : []),
    `sim: Cluster API ${cluster.capiRelease}; kill -USR2 ${String(process.pid)} upgrades it to the next release`,
    `sim: try  kubectl --kubeconfig ${kubeconfigPath} get machines -A -w`,
    '',
  ].join('\n'),
);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  process.stdout.write(`sim: ${signal}, stopping\n`);
  abort.abort();
  await controllers?.stop();
  clock.stop();
  await seeded.background.catch(() => undefined);
  await cluster.close();
  await op?.close();
  process.exit(0);
}
/**
 * SIGUSR2: Cluster API upgraded to the next release while everything runs (issue 23), in the
 * order `clusterctl upgrade apply` takes: the CRDs and the stored objects (`upgradeCapi`), then
 * the controllers, replaced by the new release's (they speak the versions it serves).
 */
let upgrading = false;
async function upgradeToNext() {
  const next = CAPI_RELEASES[CAPI_RELEASES.indexOf(cluster.capiRelease) + 1];
  if (closing || upgrading) return;
  if (next === undefined) {
    process.stdout.write(
      `sim: Cluster API ${cluster.capiRelease} is the newest release simulated\n`,
    );
    return;
  }
  upgrading = true;
  try {
    const { from, to, migrated } = await cluster.upgradeCapi(next);
    // (A shutdown meanwhile exits the process whatever these do.)
    if (controllers) {
      await controllers.stop();
      controllers = await runControllers();
    }
    process.stdout.write(
      `sim: Cluster API upgraded ${from} → ${to}: ${String(migrated)} objects rewritten in the new storage version${controllers ? ', controllers restarted' : ''}\n`,
    );
  } catch (e) {
    process.stderr.write(`sim: the upgrade to Cluster API ${next} failed: ${String(e)}\n`);
  } finally {
    upgrading = false;
  }
}
process.on('SIGUSR2', () => void upgradeToNext());
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
