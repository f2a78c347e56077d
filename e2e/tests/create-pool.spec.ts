import { expect, expectAccessible, snap, test } from '../fixtures';

test('O-CREATE-POOL, U-4, U-7: through every validation error to a pool whose machines reach Running live', async ({
  page,
  signIn,
  nodePools,
  addPool,
}, testInfo) => {
  test.setTimeout(180_000);
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  await pools.addWorkerNodePool().click();
  await expect(page.getByRole('heading', { name: 'Add Worker Node Pool' })).toBeVisible();
  const name = addPool.field('Name');
  await expect(name).toHaveValue(/^prod-east-worker-\d+$/);
  // U-4: a fresh form shows no rule message before the user has edited a field or tried to submit.
  await expect(page.getByText(/entries needs at least 1 item/)).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: /^Fill in the fields/ })).toBeVisible();
  await snap(page, testInfo, 'add-pool');
  await expectAccessible(page, testInfo, 'add-pool');

  // R-MD-5: a Kubernetes name, free in the namespace.
  await name.fill('Bad_Name');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/R-MD-5/).first()).toBeVisible();
  await name.fill('prod-east-batch');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  const poolName = `prod-east-e2e-${Date.now() % 100000}`;
  await name.fill(poolName);
  await expect(name).toHaveAttribute('aria-invalid', 'false');

  // R-POOL-1: a new IP pool needs an entry per machine; trying to preview shows every field's message.
  const replicas = addPool.field('Replicas');
  await replicas.fill('2');
  await expect(replicas).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/R-MD-1/).first()).toBeVisible();
  await expect(page.getByText(/entries needs at least 1 item/)).toBeHidden();
  await addPool.previewButton().click();
  await expect(page.getByText(/entries needs at least 1 item/)).toBeVisible();
  await page.getByRole('button', { name: /^Suggest 2 entries/ }).click();
  await expect(page.getByLabel('IP (Entry 2)')).not.toHaveValue('');

  // R-MD-2: maxSurge and maxUnavailable may not both be 0.
  await addPool.field('maxSurge').fill('0');
  await addPool.field('maxUnavailable').fill('0');
  await expect(page.getByText(/R-MD-2/).first()).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^1 problem to fix/ })).toBeVisible();
  await addPool.field('maxUnavailable').fill('1');
  await expect(page.getByRole('status').filter({ hasText: /^Ready:/ })).toBeVisible();

  // The plan: every object, YAML and kubectl equivalents, before anything is created.
  await addPool.previewButton().click();
  const plan = page.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText('O-CREATE-POOL');
  await expect(
    plan.getByRole('listitem').filter({ hasText: `Create MachineDeployment ${poolName}` }),
  ).toBeVisible();
  await snap(page, testInfo, 'add-pool-plan');
  await addPool.createButton().click();

  // U-7: the new pool's page; its machines appear and reach Running, live.
  await expect(page).toHaveURL(new RegExp(`/node-pools/${poolName}$`));
  const machines = page.getByRole('table', { name: `Machines of ${poolName}` });
  await expect(machines.getByRole('row').filter({ hasText: 'Running' })).toHaveCount(2, {
    timeout: 90_000,
  });
  await snap(page, testInfo, 'new-pool-running');
  await pools.goto();
  await expect(pools.replicas(pools.card(poolName), 'Ready')).toHaveText('2');
});
