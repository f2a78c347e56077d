import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { NS, expect, kubectl, test } from '../fixtures';

// The journeys read back with the real kubectl, which keeps each server's discovery by host and
// port in ~/.kube/cache for hours. A stack's servers take free ports, which a later stack of
// another Cluster API release can get again; e2e `autoscale` on v1.16 was once answered "the
// server could not find the requested resource" for a kind the server serves, from the cache of
// an earlier v1.10 stack on the same port. The journeys' kubectl keeps a cache per kubeconfig.

const run = promisify(execFile);
const GROUP = 'cluster.x-k8s.io';

/** The discovery kubectl would cache for `server`, with Cluster API's group at a version no release serves. */
async function staleDiscovery(kubeconfig: string): Promise<{ dir: string; hostPort: string }> {
  const server = /server:\s*(\S+)/.exec(readFileSync(kubeconfig, 'utf8'))?.[1] ?? '';
  const url = new URL(server);
  const hostPort = `${url.hostname}_${url.port}`;
  const cache = mkdtempSync(join(tmpdir(), 'dcs-e2e-kube-cache-'));
  await run('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', cache, 'api-resources']);
  const dir = join(cache, 'discovery', hostPort);
  const groupsFile = join(dir, 'servergroups.json');
  const groups = JSON.parse(readFileSync(groupsFile, 'utf8')) as {
    groups: {
      name: string;
      versions: { groupVersion: string; version: string }[];
      preferredVersion: { groupVersion: string; version: string };
    }[];
  };
  const capi = groups.groups.find((g) => g.name === GROUP);
  if (!capi) throw new Error(`no ${GROUP} in the discovery of ${server}`);
  const served = capi.preferredVersion.version;
  const stale = { groupVersion: `${GROUP}/v1alpha3`, version: 'v1alpha3' };
  capi.versions = [stale];
  capi.preferredVersion = stale;
  writeFileSync(groupsFile, JSON.stringify(groups));
  const resourcesFile = join(dir, GROUP, served, 'serverresources.json');
  const resources = JSON.parse(readFileSync(resourcesFile, 'utf8')) as { groupVersion: string };
  resources.groupVersion = stale.groupVersion;
  writeFileSync(resourcesFile, JSON.stringify(resources));
  renameSync(join(dir, GROUP, served), join(dir, GROUP, 'v1alpha3'));
  return { dir, hostPort };
}

test('kubectl in the journeys is not misled by the discovery another server left on the same port', async ({
  stack,
}) => {
  const { dir, hostPort } = await staleDiscovery(stack.kubeconfig);
  // The hazard: kubectl trusts that cache and asks for a version the server does not serve.
  const misled = await run('kubectl', [
    '--kubeconfig',
    stack.kubeconfig,
    '--cache-dir',
    join(dir, '..', '..'),
    '-n',
    NS,
    'get',
    'machinedeployments',
  ]).then(
    () => '',
    (e: unknown) => String((e as { stderr?: string }).stderr ?? e),
  );
  expect(misled).toContain('the server could not find the requested resource');

  // Left where kubectl looks by default, as an earlier stack on this port would have left it.
  const planted = join(homedir(), '.kube', 'cache', 'discovery', hostPort);
  rmSync(planted, { recursive: true, force: true });
  cpSync(dir, planted, { recursive: true });
  try {
    const out = await kubectl(stack.kubeconfig, 'get', 'machinedeployments', '-o', 'name');
    expect(out).toContain('machinedeployment.cluster.x-k8s.io/');
  } finally {
    rmSync(planted, { recursive: true, force: true });
  }
});
