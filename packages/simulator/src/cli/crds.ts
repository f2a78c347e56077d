import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { INFRASTRUCTURE_GROUP, kindTable } from '@dcs/domain';
import { stringify } from 'yaml';
import { crdKinds, crdOf, dcsCrds } from '../crds';
import { KubeClient } from '../runtime/client';
import { WATCHED_KINDS } from '../runtime/caches';
import { loadKubeConfig } from '../runtime/kubeconfig';

/**
 * `pnpm sim:crds` prints the DCS CRDs; `--all` adds this project's rendering of the Cluster API
 * ones. `--kubeconfig FILE` (issue 25): the DCS CRDs and the CRD of every other kind the
 * controllers watch that FILE's API server does not serve yet (e.g. KubeadmConfig, which a set
 * of Cluster API core CRDs lacks), so that `… | kubectl apply --server-side -f -` installs what
 * `pnpm sim:controllers` needs; a CRD the server has is never printed again, so upstream's
 * installed ones are kept.
 */

const { values } = parseArgs({
  options: {
    all: { type: 'boolean', default: false },
    kubeconfig: { type: 'string' },
    context: { type: 'string' },
  },
  strict: true,
});

async function missingOnServer(path: string): Promise<(typeof crdKinds)[number][]> {
  const userDir = process.env.INIT_CWD ?? process.cwd();
  const kc = await loadKubeConfig(
    { file: isAbsolute(path) ? path : resolve(userDir, path) },
    values.context,
  );
  const client = new KubeClient(kc, 'sim-crds');
  try {
    await client.discoverVersions();
    const missing = await client.missingKinds(WATCHED_KINDS.map((k) => kindTable[k]));
    const kinds = new Set(missing.map((k) => k.kind));
    return crdKinds.filter((k) => kinds.has(k) && kindTable[k].group !== INFRASTRUCTURE_GROUP);
  } finally {
    client.close();
  }
}

let crds: ReturnType<typeof dcsCrds>;
if (values.all) crds = crdKinds.map(crdOf);
else if (values.kubeconfig !== undefined) {
  try {
    crds = [...dcsCrds(), ...(await missingOnServer(values.kubeconfig)).map(crdOf)];
  } catch (e) {
    process.stderr.write(`sim:crds: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
} else crds = dcsCrds();
process.stdout.write(crds.map((crd) => stringify(crd)).join('---\n'));
