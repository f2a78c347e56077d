import { expect, expectChinese, getJson, snap, test } from '../fixtures';
import type { Locator } from '@playwright/test';

// O-AUTOSCALE / O-AUTOSCALE-REMOVE (issue 26 item 2): the cluster autoscaler's bounds of a worker
// pool, set from its card through a previewed plan, read back with kubectl; the card shows them
// and what the (simulated) autoscaler reports of the pool from the workload cluster's status
// ConfigMap; a manual scale outside the bounds is refused, one within them warned (R-AS-7); the
// bounds removed; a viewer's button disabled with the reason; in Chinese.
//
// Its own stack (`stackName`): bounds on prod-east-data would change every other journey's scale.
test.use({ stackName: 'autoscale' });

const POOL = 'prod-east-data';
const MIN = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
const MAX = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';

/** The card's fact of this label (a description list's term and its value). */
const fact = (card: Locator, label: string) =>
  card
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');

interface Md {
  metadata: { annotations?: Record<string, string> };
  spec: { replicas: number };
}

test('O-AUTOSCALE: bounds set from the card, shown with the autoscaler’s own view; a scale outside them refused, within them warned; O-AUTOSCALE-REMOVE', async ({
  page,
  signIn,
  nodePools,
  stack,
}, testInfo) => {
  test.setTimeout(150_000);
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  const card = pools.card(POOL);
  await expect(pools.replicas(card, 'Ready')).toHaveText('3');
  await expect(fact(card, 'Autoscaling')).toHaveText('Off');

  // Set the bounds: both, whole numbers, min ≤ max, the replicas within them.
  await card.getByRole('button', { name: 'Autoscaling', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Autoscaling of ${POOL}` });
  const min = dialog.getByRole('spinbutton', { name: /^Minimum replicas/ });
  const max = dialog.getByRole('spinbutton', { name: /^Maximum replicas/ });
  const preview = dialog.getByRole('button', { name: 'Preview plan' });
  await min.fill('2');
  // R-AS-2: one without the other is said at the field that is missing.
  await expect(max).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toContainText('maxSize is missing');
  await expect(preview).toBeDisabled();
  // R-AS-3: min above max.
  await max.fill('1');
  await expect(dialog).toContainText('minSize 2 is more than maxSize 1');
  await max.fill('3');
  await expect(max).toHaveAttribute('aria-invalid', 'false');
  await snap(page, testInfo, 'autoscale-dialog');
  await preview.click();
  const plan = dialog.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText(
    `Set the cluster autoscaler’s bounds of ${POOL}: minSize — → 2, maxSize — → 3`,
  );
  await expect(plan).toContainText('O-AUTOSCALE');
  await expect(plan).toContainText(
    'The cluster autoscaler manages prod-east-data between 2 and 3 replicas',
  );
  await expect(plan).toContainText('cluster-api-autoscaler-node-group-min-size');
  await snap(page, testInfo, 'autoscale-plan');
  await dialog.getByRole('button', { name: 'Set bounds', exact: true }).click();
  await expect(dialog).toBeHidden();

  // Written as kubectl reads it; the card shows the bounds, then the autoscaler's own view.
  const md = await getJson<Md>(stack.kubeconfig, 'machinedeployments', POOL);
  expect(md.metadata.annotations).toMatchObject({ [MIN]: '2', [MAX]: '3' });
  await expect(fact(card, 'Autoscaling')).toHaveText('2–3 replicas');
  await expect(fact(card, 'Cluster autoscaler')).toContainText(
    'Healthy · target 3, 3 ready (min 2, max 3)',
    { timeout: 30_000 },
  );
  await expect(fact(card, 'Cluster autoscaler')).toContainText(/Last scale-up: NoActivity \(.+\)/);
  await snap(page, testInfo, 'autoscale-card');

  // R-AS-7: a manual scale below the minimum is refused at the field; within the bounds it warns.
  await card.getByRole('button', { name: 'Scale', exact: true }).click();
  const scale = page.getByRole('dialog', { name: `Scale ${POOL}` });
  await expect(scale).toContainText('Autoscaled between 2 and 3: outside them a count is refused');
  const replicas = scale.getByLabel('Replicas');
  await scale.getByRole('button', { name: 'One replica fewer' }).click();
  await scale.getByRole('button', { name: 'One replica fewer' }).click();
  await expect(replicas).toHaveValue('1');
  await expect(replicas).toHaveAttribute('aria-invalid', 'true');
  await expect(scale).toContainText('replicas 1 is below the autoscaler’s minSize 2');
  await expect(scale.getByRole('button', { name: 'Preview plan' })).toBeDisabled();
  await snap(page, testInfo, 'autoscale-scale-refused');
  await scale.getByRole('button', { name: 'One replica more' }).click();
  await expect(replicas).toHaveAttribute('aria-invalid', 'false');
  await scale.getByRole('button', { name: 'Preview plan' }).click();
  await expect(scale.getByRole('region', { name: 'Plan' })).toContainText(
    `${POOL} is managed by the cluster autoscaler between 2 and 3: it may change replicas 2 again`,
  );
  await scale.getByRole('button', { name: 'Cancel' }).click();
  await expect(scale).toBeHidden();

  // Remove the bounds: both annotations go, replicas stay.
  await card.getByRole('button', { name: 'Autoscaling', exact: true }).click();
  await dialog.getByRole('button', { name: 'Remove the bounds' }).click();
  await expect(plan).toContainText(`Remove the cluster autoscaler’s bounds of ${POOL}`);
  await expect(plan).toContainText('O-AUTOSCALE-REMOVE');
  await expect(plan).toContainText('its replicas stay at 3');
  await dialog.getByRole('button', { name: 'Remove bounds', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(fact(card, 'Autoscaling')).toHaveText('Off');
  const after = await getJson<Md>(stack.kubeconfig, 'machinedeployments', POOL);
  expect(after.metadata.annotations ?? {}).not.toHaveProperty(MIN);
  expect(after.metadata.annotations ?? {}).not.toHaveProperty(MAX);
  expect(after.spec.replicas).toBe(3);

  // The audit timeline of the cluster has both.
  const timeline = page.getByRole('table', { name: 'Timeline' });
  await expect(timeline).toContainText('O-AUTOSCALE-REMOVE');
  await expect(timeline).toContainText(/ran O-AUTOSCALE on/);
});

test('O-AUTOSCALE for a viewer: the card’s Autoscaling is there, disabled, and says which access review refused it', async ({
  signIn,
  nodePools,
}) => {
  await signIn('viewer');
  const pools = nodePools('prod-east');
  await pools.goto();
  const button = pools.card(POOL).getByRole('button', { name: 'Autoscaling', exact: true });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(/patch\b.*machinedeployments/i);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('O-AUTOSCALE：在卡片上设置 cluster-autoscaler 边界，卡片显示边界，然后移除', async ({
    page,
    signIn,
    nodePools,
  }, testInfo) => {
    await signIn('operator');
    const pools = nodePools('prod-east');
    await pools.goto();
    const card = pools.card('prod-east-legacy');
    await card.getByRole('button', { name: '自动伸缩', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'prod-east-legacy 的自动伸缩' });
    await dialog.getByRole('spinbutton', { name: /^最小副本数/ }).fill('1');
    await dialog.getByRole('spinbutton', { name: /^最大副本数/ }).fill('3');
    await expectChinese(page, 'the autoscaling dialog');
    await snap(page, testInfo, 'autoscale-dialog-zh');
    await dialog.getByRole('button', { name: '预览计划' }).click();
    await expect(dialog.getByRole('region', { name: '计划' })).toContainText(
      '设置 prod-east-legacy 的 cluster-autoscaler 边界：minSize — → 1, maxSize — → 3',
    );
    await dialog.getByRole('button', { name: '设置边界', exact: true }).click();
    await expect(dialog).toBeHidden();
    const bounds = fact(card, '自动伸缩');
    await expect(bounds).toHaveText('1–3 个副本');
    await expect(fact(card, 'cluster-autoscaler 状态')).toContainText('Healthy · 目标 3', {
      timeout: 30_000,
    });
    await expectChinese(page, 'the node pools with an autoscaled pool');
    await snap(page, testInfo, 'autoscale-card-zh');
    await card.getByRole('button', { name: '自动伸缩', exact: true }).click();
    await dialog.getByRole('button', { name: '移除边界' }).click();
    await dialog.getByRole('button', { name: '移除边界', exact: true }).last().click();
    await expect(dialog).toBeHidden();
    await expect(bounds).toHaveText('未启用');
  });
});
