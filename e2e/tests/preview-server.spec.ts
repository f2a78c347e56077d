import { expect, getJson, kubectl, snap, test } from '../fixtures';

/**
 * Issue 11 through the browser: Preview asks the API server (a refusal it cannot foresee is shown
 * at its step and keeps Apply disabled), a duration the API cannot use is refused at its field,
 * and a new pool's IP entries carry no NIC the user did not give (the control plane's upgrade to
 * 1.35 and its kubelet patch, R-BOOT-1, are checked in upgrades.spec.ts, the one journey that
 * upgrades prod-east's control plane). What was written is read back with kubectl, as an operator
 * would check it.
 */

test('Preview asks the server: a refusal injected at the API server shows at its step, and Apply stays disabled until it is lifted', async ({
  page,
  signIn,
  nodePools,
  stack,
}, testInfo) => {
  test.setTimeout(120_000);
  await signIn('operator');
  const pool = 'prod-east-legacy';
  await kubectl(
    stack.kubeconfig,
    'annotate',
    'machinedeployments.cluster.x-k8s.io',
    pool,
    'sim.dcs.io/refuse=frozen for maintenance by the e2e test',
  );
  try {
    const pools = nodePools('prod-east');
    await pools.goto();
    await pools.card(pool).getByRole('button', { name: 'Scale', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Scale ${pool}` });
    await dialog.getByRole('button', { name: 'One replica more' }).click();
    const extend = dialog.getByRole('button', { name: /^Extend IP pool by/ });
    if (await extend.isVisible()) await extend.click();
    await dialog.getByRole('button', { name: 'Preview plan' }).click();
    const plan = dialog.getByRole('region', { name: 'Plan' });
    const scaleStep = plan
      .getByRole('listitem')
      .filter({ hasText: new RegExp(`Change the replicas of ${pool}`) });
    await expect(scaleStep).toContainText('Refused by the API server (dry run)');
    await expect(scaleStep).toContainText(
      'metadata.annotations.sim.dcs.io/refuse: frozen for maintenance by the e2e test',
    );
    await expect(plan).toContainText('The API server refused 1 step in a dry run');
    await expect(dialog.getByRole('button', { name: 'Scale', exact: true })).toBeDisabled();
    await snap(page, testInfo, 'preview-refused');

    // Lifted: the same request previews clean, every step accepted by the server.
    await kubectl(
      stack.kubeconfig,
      'annotate',
      'machinedeployments.cluster.x-k8s.io',
      pool,
      'sim.dcs.io/refuse-',
    );
    await dialog.getByRole('button', { name: 'Back' }).click();
    await dialog.getByRole('button', { name: 'Preview plan' }).click();
    await expect(scaleStep).toContainText('Accepted by the API server (dry run)');
    await expect(plan).toContainText('The API server accepted every step in a dry run');
    await expect(dialog.getByRole('button', { name: 'Scale', exact: true })).toBeEnabled();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  } finally {
    await kubectl(
      stack.kubeconfig,
      'annotate',
      'machinedeployments.cluster.x-k8s.io',
      pool,
      'sim.dcs.io/refuse-',
    ).catch(() => '');
  }
});

test('nodeDrainTimeout "soon" is refused at its field; the new pool is written with a Go duration and entries without NICs nobody gave', async ({
  page,
  signIn,
  nodePools,
  addPool,
  stack,
}) => {
  test.setTimeout(120_000);
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  await pools.addWorkerNodePool().click();
  const poolName = `prod-east-i11-${Date.now() % 100000}`;
  await addPool.field('Name').fill(poolName);
  await addPool.field('Replicas').fill('1');
  await page.getByRole('button', { name: /^Suggest 1 entry/ }).click();
  await expect(page.getByLabel('IP (Entry 1)')).not.toHaveValue('');

  const drain = addPool.field('Node drain timeout');
  await drain.fill('soon');
  await drain.blur();
  await expect(drain).toHaveAttribute('aria-invalid', 'true');
  expect(await addPool.helpOf('Node drain timeout')).toMatch(/duration/i);
  await drain.fill('5m');
  await expect(drain).toHaveAttribute('aria-invalid', 'false');

  await addPool.previewButton().click();
  const plan = page.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText('O-CREATE-POOL');
  await expect(plan).toContainText('The API server accepted every step in a dry run');
  await addPool.createButton().click();
  await expect(page).toHaveURL(new RegExp(`/node-pools/${poolName}$`));

  // Read back as an operator would: the duration as typed, and no NIC the user did not give.
  const md = await getJson<{
    apiVersion: string;
    spec: {
      template: {
        spec: {
          nodeDrainTimeout?: string;
          deletion?: { nodeDrainTimeoutSeconds?: number };
          infrastructureRef: { name: string };
        };
      };
    };
  }>(stack.kubeconfig, 'machinedeployments.cluster.x-k8s.io', poolName);
  // kubectl reads the preferred version: v1beta2 (Cluster API >= v1.11) holds seconds.
  if (md.apiVersion.endsWith('/v1beta2')) {
    expect(md.spec.template.spec.deletion?.nodeDrainTimeoutSeconds).toBe(300);
  } else {
    expect(md.spec.template.spec.nodeDrainTimeout).toBe('5m');
  }
  const template = await getJson<{
    spec: { template: { spec: { ipHostPoolRef: { name: string } } } };
  }>(
    stack.kubeconfig,
    'dcsmachinetemplates.infrastructure.cluster.x-k8s.io',
    md.spec.template.spec.infrastructureRef.name,
  );
  const ipPool = await getJson<{ spec: { pool: { ip: string; additionNic?: unknown[] }[] } }>(
    stack.kubeconfig,
    'dcsiphostnamepools.infrastructure.cluster.x-k8s.io',
    template.spec.template.spec.ipHostPoolRef.name,
  );
  expect(ipPool.spec.pool).toHaveLength(1);
  expect(ipPool.spec.pool[0]?.additionNic ?? []).toEqual([]);
});
