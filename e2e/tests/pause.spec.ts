import { expect, expectAccessible, kubectl, snap, test } from '../fixtures';
import type { Locator } from '@playwright/test';

// O-PAUSE / O-RESUME (issue 26): Cluster API's reconciliation of one pool (the paused annotation
// on its MachineDeployment) and of a whole cluster (spec.paused), paused and resumed through a
// previewed plan; every card a pause affects says so; a scale of a paused pool does not progress
// while another pool's does, and goes on once resumed.
//
// Its own stack (`stackName`): pausing prod-east would hold up every other journey's changes.
test.use({ stackName: 'pause' });

/** Machines of a pool that are not being deleted, and the replicas of its MachineSets, by kubectl. */
async function poolState(kubeconfig: string, pool: string) {
  const machines = JSON.parse(
    await kubectl(
      kubeconfig,
      'get',
      'machines',
      '-l',
      `cluster.x-k8s.io/deployment-name=${pool}`,
      '-o',
      'json',
    ),
  ) as { items: { metadata: { deletionTimestamp?: string } }[] };
  const sets = JSON.parse(
    await kubectl(
      kubeconfig,
      'get',
      'machinesets',
      '-l',
      `cluster.x-k8s.io/deployment-name=${pool}`,
      '-o',
      'json',
    ),
  ) as { items: { spec: { replicas?: number } }[] };
  return {
    machines: machines.items.length,
    setReplicas: sets.items.reduce((n, s) => n + (s.spec.replicas ?? 0), 0),
  };
}

/** The card's menu item, by name: opens the "More actions" menu first. */
async function menuItem(card: Locator, name: string | RegExp): Promise<Locator> {
  await card.getByRole('button', { name: /^More actions for / }).click();
  return card.page().getByRole('menuitem', { name });
}

async function scaleDown(card: Locator, pool: string) {
  await card.getByRole('button', { name: 'Scale', exact: true }).click();
  const dialog = card.page().getByRole('dialog', { name: `Scale ${pool}` });
  await dialog.getByRole('button', { name: 'One replica fewer' }).click();
  await dialog.getByRole('button', { name: 'Preview plan' }).click();
  const plan = dialog.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText('Change the replicas of');
  return { dialog, plan };
}

test('O-PAUSE of a pool: its card says Paused, its scale-down waits while another pool’s goes through; O-RESUME and it goes on', async ({
  page,
  signIn,
  nodePools,
  stack,
}, testInfo) => {
  test.setTimeout(180_000);
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  const legacy = pools.card('prod-east-legacy');
  const data = pools.card('prod-east-data');
  await expect(pools.replicas(legacy, 'Ready')).toHaveText('3');
  await expect(pools.replicas(data, 'Ready')).toHaveText('3');

  // Pause prod-east-legacy from its card's menu: the plan adds the annotation, and says what stops.
  await (await menuItem(legacy, 'Pause reconciliation')).click();
  const dialog = page.getByRole('dialog', { name: 'Pause reconciliation of prod-east-legacy' });
  await expect(dialog).toContainText('Cluster API stops reconciling the MachineDeployment');
  await dialog.getByRole('button', { name: 'Preview plan' }).click();
  const plan = dialog.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText(
    'Pause MachineDeployment prod-east-legacy: add the cluster.x-k8s.io/paused annotation',
  );
  await expect(plan).toContainText('O-PAUSE');
  await snap(page, testInfo, 'pause-pool-plan');
  await dialog.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(dialog).toBeHidden();

  // The card says it, with Cluster API's own word once the controller wrote its Paused condition.
  await expect(legacy.getByText('Paused: paused annotation')).toBeVisible();
  await expect(
    legacy.getByTitle(
      /Paused condition: True · Paused · MachineDeployment has the cluster.x-k8s.io\/paused annotation/,
    ),
  ).toHaveText('Paused: paused annotation');
  await expect(data.getByText(/^Paused:/)).toHaveCount(0);

  // Both pools scaled down by one: the paused one's plan warns (R-PAUSE-1).
  const paused = await scaleDown(legacy, 'prod-east-legacy');
  await expect(paused.plan).toContainText(
    'MachineDeployment prod-east-legacy is paused (cluster.x-k8s.io/paused annotation): Cluster API does not reconcile it, so this change is written but nothing happens until it is resumed',
  );
  await snap(page, testInfo, 'pause-scale-warning');
  await paused.dialog.getByRole('button', { name: 'Scale', exact: true }).click();
  await expect(paused.dialog).toBeHidden();
  const free = await scaleDown(data, 'prod-east-data');
  await expect(free.plan).not.toContainText('is paused');
  await free.dialog.getByRole('button', { name: 'Scale', exact: true }).click();
  await expect(free.dialog).toBeHidden();

  // The unpaused pool goes down to 2 machines; meanwhile the paused one has not moved at all.
  await expect(pools.replicas(data, 'Ready')).toHaveText('2', { timeout: 60_000 });
  await expect
    .poll(async () => (await poolState(stack.kubeconfig, 'prod-east-data')).machines, {
      timeout: 60_000,
    })
    .toBe(2);
  expect(await poolState(stack.kubeconfig, 'prod-east-legacy')).toEqual({
    machines: 3,
    setReplicas: 3,
  });
  await expect(pools.replicas(legacy, 'Replicas')).toHaveText('2');
  await expect(pools.replicas(legacy, 'Ready')).toHaveText('3');
  await snap(page, testInfo, 'pause-pool-paused');

  // Resume: the plan says the change made meanwhile is carried out now; and it is.
  await (await menuItem(legacy, 'Resume reconciliation')).click();
  const resume = page.getByRole('dialog', { name: 'Resume reconciliation of prod-east-legacy' });
  await resume.getByRole('button', { name: 'Preview plan' }).click();
  await expect(resume.getByRole('region', { name: 'Plan' })).toContainText(
    /MachineDeployment prod-east-legacy was changed while paused .*: the change is carried out now/,
  );
  await resume.getByRole('button', { name: 'Resume', exact: true }).click();
  await expect(resume).toBeHidden();
  await expect(legacy.getByText(/^Paused:/)).toHaveCount(0);
  await expect(pools.replicas(legacy, 'Ready')).toHaveText('2', { timeout: 60_000 });
  await expect
    .poll(async () => poolState(stack.kubeconfig, 'prod-east-legacy'), { timeout: 60_000 })
    .toEqual({ machines: 2, setReplicas: 2 });
});

test('O-PAUSE of a cluster: the cluster, its control plane and every pool say Paused; a scale plan warns nothing will happen; O-RESUME', async ({
  page,
  signIn,
  nodePools,
}, testInfo) => {
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  await page.getByRole('button', { name: 'Pause reconciliation', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Pause reconciliation of cluster prod-east' });
  await dialog.getByRole('button', { name: 'Preview plan' }).click();
  const plan = dialog.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText('Pause cluster prod-east: set spec.paused to true');
  await expect(plan).toContainText('Cluster API stops reconciling cluster prod-east');
  await dialog.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(dialog).toBeHidden();

  // Every card it affects: the cluster's header, the control plane, each worker pool.
  const cards = [
    pools.controlPlane(),
    pools.card('prod-east-legacy'),
    pools.card('prod-east-data'),
  ];
  for (const card of cards) {
    await expect(
      card.getByTitle(/Paused condition: True · Paused · Cluster spec.paused is set to true/),
    ).toHaveText('Paused: cluster paused');
  }
  const header = page.getByText('Paused: cluster paused').first();
  await expect(header).toBeVisible();
  await expect(
    page.getByRole('button', { name: 'Resume reconciliation', exact: true }),
  ).toBeVisible();
  await snap(page, testInfo, 'pause-cluster-paused');
  // The chips and the header's action, as axe judges them (contrast, names).
  await expectAccessible(page, testInfo, 'pause-cluster-paused');

  // R-PAUSE-1: any change to the paused cluster says nothing happens until it is resumed.
  const data = pools.card('prod-east-data');
  const scale = await scaleDown(data, 'prod-east-data');
  await expect(scale.plan).toContainText(
    'Cluster prod-east is paused (spec.paused): Cluster API reconciles none of its objects',
  );
  await scale.dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Resume reconciliation', exact: true }).click();
  const resume = page.getByRole('dialog', { name: 'Resume reconciliation of cluster prod-east' });
  await resume.getByRole('button', { name: 'Preview plan' }).click();
  await expect(resume.getByRole('region', { name: 'Plan' })).toContainText(
    'Resume cluster prod-east: remove spec.paused',
  );
  await resume.getByRole('button', { name: 'Resume', exact: true }).click();
  await expect(resume).toBeHidden();
  for (const card of cards) await expect(card.getByText(/^Paused:/)).toHaveCount(0);
  await expect(
    page.getByRole('button', { name: 'Pause reconciliation', exact: true }),
  ).toBeVisible();
});

test('O-PAUSE for a viewer: the cluster’s action is there, disabled, and says which access review refused it', async ({
  page,
  signIn,
  nodePools,
}) => {
  await signIn('viewer');
  await nodePools('prod-east').goto();
  const button = page.getByRole('button', { name: 'Pause reconciliation', exact: true });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(/patch\b.*clusters/i);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('O-PAUSE：暂停节点池的协调，卡片显示已暂停，然后恢复', async ({
    page,
    signIn,
    nodePools,
  }) => {
    await signIn('operator');
    const pools = nodePools('prod-east');
    await pools.goto();
    const card = pools.card('prod-east-data');
    await card.getByRole('button', { name: 'prod-east-data 的更多操作' }).click();
    await page.getByRole('menuitem', { name: '暂停协调' }).click();
    const dialog = page.getByRole('dialog', { name: '暂停 prod-east-data 的协调' });
    await dialog.getByRole('button', { name: '预览计划' }).click();
    await expect(dialog.getByRole('region', { name: '计划' })).toContainText(
      '暂停 MachineDeployment prod-east-data：添加 cluster.x-k8s.io/paused 注解',
    );
    await dialog.getByRole('button', { name: '暂停', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByText('已暂停：暂停注解')).toBeVisible();
    await card.getByRole('button', { name: 'prod-east-data 的更多操作' }).click();
    await page.getByRole('menuitem', { name: '恢复协调' }).click();
    const resume = page.getByRole('dialog', { name: '恢复 prod-east-data 的协调' });
    await resume.getByRole('button', { name: '预览计划' }).click();
    await resume.getByRole('button', { name: '恢复', exact: true }).click();
    await expect(resume).toBeHidden();
    await expect(card.getByText(/^已暂停：/)).toHaveCount(0);
  });
});
