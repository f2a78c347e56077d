import { expect, kubectl, snap, test } from '../fixtures';

/**
 * Issue 23: Cluster API upgraded from v1.10 to v1.14 to v1.16 under a running console, with the
 * Node Pools page open on its stream. The page never shows an error, every change made through
 * kubectl in the version the cluster serves reaches it live, and afterwards the console reads
 * v1beta2 (the YAML view shows the object as the cluster now serves it).
 */

test.use({ stackName: 'capi-upgrade', capiRelease: 'v1.10' });

test('Cluster API v1.10 → v1.14 → v1.16 under an open Node Pools page: no error, no lost change, v1beta2 afterwards', async ({
  page,
  signIn,
  nodePools,
  stack,
}, testInfo) => {
  test.setTimeout(300_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 500) problems.push(`${String(r.status())} ${r.url()}`);
  });
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  const card = pools.card('prod-east-data');
  await expect(pools.replicas(card, 'Ready')).toHaveText('3');

  const scale = async (resource: string, replicas: number) => {
    await kubectl(
      stack.kubeconfig,
      'scale',
      `${resource}/prod-east-data`,
      `--replicas=${String(replicas)}`,
    );
  };

  expect(await stack.upgradeCapi()).toContain('v1.10 → v1.14');
  // v1beta2 now stored and served; v1beta1 still served, deprecated.
  await scale('machinedeployments.v1beta2.cluster.x-k8s.io', 2);
  await expect(pools.replicas(card, 'Replicas')).toHaveText('2');
  await expect(pools.replicas(card, 'Ready')).toHaveText('2', { timeout: 60_000 });

  expect(await stack.upgradeCapi()).toContain('v1.14 → v1.16');
  // v1beta1 is no longer served: the console's watches move to v1beta2 (their 404 tells it).
  await scale('machinedeployments.v1beta2.cluster.x-k8s.io', 3);
  await expect(pools.replicas(card, 'Replicas')).toHaveText('3');
  await expect(pools.replicas(card, 'Ready')).toHaveText('3', { timeout: 90_000 });
  await snap(page, testInfo, 'capi-upgrade-v1.16');

  await page.getByRole('button', { name: 'More actions for prod-east-data' }).click();
  await page.getByRole('menuitem', { name: 'View YAML' }).click();
  const yaml = page.getByLabel('YAML of MachineDeployment prod-east-data');
  await expect(yaml).toContainText('apiVersion: cluster.x-k8s.io/v1beta2');
  await expect(yaml).toContainText('replicas: 3');
  expect(problems).toEqual([]);
});
