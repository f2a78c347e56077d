import { NS, expect, snap, test } from '../fixtures';

// U-3 (IP Pools tab) and R-POOL-1..3: a cluster's tab lists the pools it uses apart from the
// namespace's others, and a standalone pool is created from it through a previewed plan.

test('IP Pools tab: this cluster’s pools apart from the namespace’s others; create a standalone pool', async ({
  page,
  signIn,
}, testInfo) => {
  await signIn('operator');
  await page.goto(`/clusters/${NS}/dev-west/ip-pools`);
  const mine = page.getByRole('table', { name: 'Used by dev-west' });
  const others = page.getByRole('table', { name: `Other IP pools in ${NS}` });
  await expect(mine.getByRole('link', { name: 'dev-west-full-ippool' })).toBeVisible();
  await expect(mine.getByRole('link', { name: 'prod-east-data-ippool' })).toHaveCount(0);
  await expect(others.getByRole('link', { name: 'prod-east-data-ippool' })).toBeVisible();
  await snap(page, testInfo, 'ip-pools-tab');

  await page.getByRole('button', { name: 'Create IP pool' }).click();
  await expect(page.getByRole('heading', { name: 'Create IP pool' })).toBeVisible();
  // A fresh form shows no message; an emptied required field does, at the field.
  await expect(page.getByText('Required.')).toHaveCount(0);
  await page.getByRole('textbox', { name: /^Name/ }).fill('spare-ippool');
  await page.getByRole('button', { name: 'Add entry' }).click();
  await page.getByLabel('IP (Entry 1)').fill('10.250.0.11');
  await page.getByLabel('Mask (Entry 1)').fill('24');
  await page.getByLabel('Gateway (Entry 1)').fill('10.250.0.1');
  await page.getByLabel('Hostname (Entry 1)').fill('spare-1');
  await page.getByRole('button', { name: 'Preview plan' }).click();
  const plan = page.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText('spare-ippool');
  await snap(page, testInfo, 'ip-pool-create-plan');
  await page.getByRole('button', { name: 'Create IP pool' }).click();
  // Created: the pool's own page, and it is one of the namespace's others (no one uses it yet).
  await expect(page.getByRole('heading', { name: 'spare-ippool', exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Entries of spare-ippool' })).toContainText(
    '10.250.0.11',
  );
  await page.getByRole('link', { name: '← IP Pools' }).click();
  await expect(others.getByRole('link', { name: 'spare-ippool' })).toBeVisible();
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('IP 池页签：本集群使用的 IP 池与其他 IP 池分开列出；创建独立 IP 池', async ({
    page,
    signIn,
  }) => {
    await signIn('operator');
    await page.goto(`/clusters/${NS}/prod-east/ip-pools`);
    await expect(
      page.getByRole('table', { name: 'prod-east 使用的 IP 池' }).getByRole('link', {
        name: 'prod-east-data-ippool',
      }),
    ).toBeVisible();
    await expect(
      page.getByRole('table', { name: `${NS} 中的其他 IP 池` }).getByRole('link', {
        name: 'dev-west-full-ippool',
      }),
    ).toBeVisible();
    await page.getByRole('button', { name: '创建 IP 池' }).click();
    await page.getByRole('textbox', { name: /^名称/ }).fill('spare-zh-ippool');
    await page.getByRole('button', { name: '添加条目' }).click();
    await page.getByLabel('IP (条目 1)').fill('10.251.0.11');
    await page.getByLabel('掩码 (条目 1)').fill('24');
    await page.getByLabel('网关 (条目 1)').fill('10.251.0.1');
    await page.getByRole('button', { name: '预览计划' }).click();
    await expect(page.getByRole('region', { name: '计划' })).toContainText('spare-zh-ippool');
    await page.getByRole('button', { name: '创建 IP 池' }).click();
    await expect(page.getByRole('heading', { name: 'spare-zh-ippool', exact: true })).toBeVisible();
  });
});
