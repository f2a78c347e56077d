import { expect, snap, test } from '../fixtures';

// O-EDIT-STRATEGY (issue 12): a worker pool's rollout settings and node timeouts, edited in place
// through a previewed plan; R-MD-3's "keep maxSurge = 0" on the card leads there.

test('O-EDIT-STRATEGY with R-MD-3: the card’s "keep maxSurge = 0" opens the rollout settings; the plan replaces no machine; the warning goes', async ({
  page,
  signIn,
  nodePools,
}, testInfo) => {
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  // prod-east-batch keeps /var/cpaas on pool persistent disks but surges by 1.
  const card = pools.card('prod-east-batch');
  const problems = card.getByRole('group', { name: 'Problems' });
  await expect(problems).toContainText('keep maxSurge = 0');
  await problems.getByRole('button', { name: 'Set maxSurge to 0' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rollout settings of prod-east-batch' });
  const surge = dialog.getByRole('textbox', { name: 'maxSurge' });
  await expect(surge).toHaveValue('1');
  // R-MD-3 at the field, as a warning while unchanged; an error once the user sets it > 0.
  await expect(dialog).toContainText('This pool relies on persistent disks, but its maxSurge is 1');
  await surge.fill('2');
  await expect(surge).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByRole('button', { name: 'Preview plan' })).toBeDisabled();
  await surge.fill('0');
  await expect(surge).toHaveAttribute('aria-invalid', 'false');
  await dialog.getByRole('textbox', { name: 'Node drain timeout' }).fill('5m');
  await snap(page, testInfo, 'rollout-settings-form');
  await dialog.getByRole('button', { name: 'Preview plan' }).click();
  const plan = dialog.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText('Set the rollout settings of prod-east-batch: maxSurge 1 → 0');
  await expect(plan).toContainText('nodeDrainTimeout');
  await expect(plan).toContainText('No machine is replaced');
  await snap(page, testInfo, 'rollout-settings-plan');
  await dialog.getByRole('button', { name: 'Save settings' }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText('maxSurge 0, maxUnavailable 1');
  await expect(problems.getByText('keep maxSurge = 0')).toHaveCount(0);
  // Reopened, the dialog starts from what the pool has now.
  await card.getByRole('button', { name: 'Rollout settings' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Node drain timeout' })).toHaveValue(
    /^5m(0s)?$/,
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('O-EDIT-STRATEGY for a viewer: the action is visible, disabled, and says which access review refused it', async ({
  signIn,
  nodePools,
}) => {
  await signIn('viewer');
  const pools = nodePools('prod-east');
  await pools.goto();
  const button = pools.card('prod-east-data').getByRole('button', { name: 'Rollout settings' });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(/patch\b.*machinedeployment/i);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('O-EDIT-STRATEGY：修改节点池的节点驱逐超时，预览计划后保存', async ({
    page,
    signIn,
    nodePools,
  }) => {
    await signIn('operator');
    const pools = nodePools('prod-east');
    await page.goto(`/clusters/${pools.namespace}/${pools.cluster}/node-pools`);
    const card = pools.card('prod-east-legacy');
    await card.getByRole('button', { name: '滚动更新设置' }).click();
    const dialog = page.getByRole('dialog', { name: 'prod-east-legacy 的滚动更新设置' });
    const drain = dialog.getByRole('textbox', { name: '节点驱逐超时' });
    await drain.fill('3 分钟');
    await expect(drain).toHaveAttribute('aria-invalid', 'true');
    await drain.fill('3m');
    await dialog.getByRole('button', { name: '预览计划' }).click();
    const plan = dialog.getByRole('region', { name: '计划' });
    await expect(plan).toContainText('修改 prod-east-legacy 的滚动更新设置');
    await expect(plan).toContainText('不会替换任何 machine');
    await dialog.getByRole('button', { name: '保存设置' }).click();
    await expect(dialog).toBeHidden();
    await card.getByRole('button', { name: '滚动更新设置' }).click();
    await expect(dialog.getByRole('textbox', { name: '节点驱逐超时' })).toHaveValue(/^3m(0s)?$/);
  });
});
