import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CAPI_RELEASES, capiVersionsOf, isCapiRelease } from '../capi/releases';
import { MissingKindsError, startControllers } from '../controllers/start';
import { createClock } from '../logic/clock';
import { parseFailureRule, type FailureRule } from '../logic/failures';
import { seed } from '../seed';
import { seedClientOverHttp } from '../seed/clients';
import { KubeClient } from '../runtime/client';
import { loadKubeConfig } from '../runtime/kubeconfig';

/**
 * `pnpm sim:controllers --kubeconfig FILE`: the simulated Cluster API, kubeadm and DCS controllers
 * alone, against any API server that has the Cluster API CRDs and the DCS CRDs (`pnpm sim:crds`).
 * They watch all namespaces (or `--namespace`) and need rights to read and write those kinds,
 * Secrets, Events and the provider's Deployment in cpaas-system. They speak the Cluster API
 * version discovery finds served (v1beta2 where there is one), or `--capi-release`'s.
 */

const { values } = parseArgs({
  options: {
    kubeconfig: { type: 'string' },
    context: { type: 'string' },
    namespace: { type: 'string' },
    'time-scale': { type: 'string', default: '1' },
    'random-seed': { type: 'string', default: '1' },
    'provider-version': { type: 'string' },
    fail: { type: 'string', multiple: true, default: [] },
    seed: { type: 'string', default: 'none' },
    'no-events': { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    'capi-release': { type: 'string' },
  },
  strict: true,
});

function fail(message: string): never {
  process.stderr.write(`sim:controllers: ${message}\n`);
  process.exit(2);
}

const capiRelease = values['capi-release'];
if (capiRelease !== undefined && !isCapiRelease(capiRelease))
  fail(`--capi-release must be one of ${CAPI_RELEASES.join(', ')}, got ${capiRelease}`);

const userDir = process.env.INIT_CWD ?? process.cwd();
const kubeconfigPath = values.kubeconfig ?? process.env.KUBECONFIG;
if (!kubeconfigPath) fail('--kubeconfig FILE (or KUBECONFIG) is required');
const timeScale = Number(values['time-scale']);
if (!(timeScale > 0)) fail(`--time-scale must be a positive number, got ${values['time-scale']}`);
const randomSeed = Number(values['random-seed']);
if (!Number.isInteger(randomSeed))
  fail(`--random-seed must be an integer, got ${values['random-seed']}`);
const providerVersion = values['provider-version'];
if (providerVersion !== undefined && !/^v?\d+\.\d+\.\d+/.test(providerVersion)) {
  fail(`--provider-version must look like 1.0.16, got ${providerVersion}`);
}
if (!['none', 'demo', 'empty'].includes(values.seed))
  fail(`--seed must be none, demo or empty, got ${values.seed}`);
let failures: FailureRule[] = [];
try {
  failures = values.fail.map(parseFailureRule);
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}

const kubeconfig = await loadKubeConfig(
  { file: isAbsolute(kubeconfigPath) ? kubeconfigPath : resolve(userDir, kubeconfigPath) },
  values.context,
);
const clock = createClock({ timeScale });
const log = values.quiet
  ? () => undefined
  : (line: string) => process.stderr.write(`controllers: ${line}\n`);

/** A failure the user can act on: its message, without a stack trace. */
async function orExit<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // A missing CRD's message names the command to install it, with this kubeconfig (issue 25).
    const shown =
      e instanceof MissingKindsError
        ? message.replaceAll('FILE', kubeconfigPath ?? 'FILE')
        : message;
    process.stderr.write(`sim:controllers: ${what}: ${shown}\n`);
    process.exit(1);
  }
}

const controllers = await orExit('cannot start', () =>
  startControllers({
    kubeconfig,
    clock,
    options: {
      randomSeed,
      failures,
      log,
      events: !values['no-events'],
      ...(values.namespace ? { namespace: values.namespace } : {}),
      // Without the flag, the versions discovery says are served.
      ...(capiRelease ? { capiVersions: capiVersionsOf(capiRelease) } : {}),
      ...(providerVersion ? { providerVersion: providerVersion.replace(/^v/, '') } : {}),
    },
  }),
);

const abort = new AbortController();
const client = new KubeClient(kubeconfig, 'sim-seed');
let background: Promise<void> = Promise.resolve();
if (values.seed === 'demo' || values.seed === 'empty') {
  const kind = values.seed;
  const seeded = await orExit('cannot seed', () =>
    seed(kind, seedClientOverHttp(client), { signal: abort.signal }),
  );
  background = seeded.background;
  process.stdout.write(
    `sim:controllers: seed ${values.seed}: ${String(seeded.created)} created, ${String(seeded.existing)} already there\n`,
  );
}

process.stdout.write(
  `sim:controllers: running against ${kubeconfig.getCurrentCluster()?.server ?? '?'} at ${String(timeScale)}x simulated time\n`,
);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  process.stdout.write(`sim:controllers: ${signal}, stopping\n`);
  abort.abort();
  await controllers.stop();
  clock.stop();
  await background.catch(() => undefined);
  client.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
