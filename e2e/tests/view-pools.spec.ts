import { expect, expectAccessible, snap, test } from '../fixtures';

test('U-1, U-2, U-3: view a cluster’s pools, live', async ({
  page,
  signIn,
  nodePools,
}, testInfo) => {
  await signIn('operator');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Clusters', level: 1 })).toBeVisible();
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'prod-east' }) });
  // Another journey on the same stack may have upgraded the control plane already.
  await expect(row).toContainText(/v1\.3\d\.\d/);
  await snap(page, testInfo, 'clusters');
  await expectAccessible(page, testInfo, 'clusters');

  await row.getByRole('link', { name: 'prod-east' }).click();
  const pools = nodePools('prod-east');
  await expect(pools.tab('Node Pools')).toHaveAttribute('aria-selected', 'true');
  await pools.expectLive();

  // U-2: the control plane is fixed at 3 replicas, its version shows the upgrade indicator.
  const cp = pools.controlPlane();
  await expect(pools.replicas(cp, 'Replicas')).toHaveText('3');
  await expect(cp.locator('[data-fact="version"]')).toHaveText(/^v1\.3\d\.\d/);
  await expect(cp.getByRole('link', { name: 'Conditions' })).toBeVisible();

  // U-3: a worker card with its replicas, version, template, IP pool usage and actions.
  const data = pools.card('prod-east-data');
  await expect(pools.replicas(data, 'Replicas')).toHaveText(/^\d+$/);
  await expect(data).toContainText(/prod-east-data-ippool: \d+\/\d+ used/);
  for (const action of ['Scale', 'Upgrade'])
    await expect(data.getByRole('button', { name: action, exact: true })).toBeEnabled();
  await expect(data.getByRole('button', { name: 'Delete prod-east-data' })).toBeEnabled();
  await expect(pools.card('prod-east-legacy')).toContainText('Legacy disk layout');

  await snap(page, testInfo, 'node-pools');
  await expectAccessible(page, testInfo, 'node-pools');
});

test('U-1: the Nodes tab lists every machine; each has a deep link with its conditions', async ({
  page,
  signIn,
  nodes,
}, testInfo) => {
  await signIn('operator');
  const tab = nodes('prod-east');
  await tab.goto();
  await expect(tab.rowsOfPool('Control plane')).toHaveCount(3);
  const first = tab.rowsOfPool('Control plane').first();
  await expect(first).toContainText('Running');
  await snap(page, testInfo, 'nodes');
  await expectAccessible(page, testInfo, 'nodes');

  await first.getByRole('link').first().click();
  await expect(page.getByRole('table', { name: /^Conditions of Machine / })).toBeVisible();
  await snap(page, testInfo, 'machine');
  await expectAccessible(page, testInfo, 'machine');
});
