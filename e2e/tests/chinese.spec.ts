import { NS, expect, expectChinese, snap, test } from '../fixtures';

// Chinese, complete: see `fixtures/chinese.ts` (the glossary's words, data as written).

test.use({ locale: 'zh-CN' });

test('every screen speaks Chinese but for the glossary', async ({ page, signIn }, testInfo) => {
  test.setTimeout(180_000);
  await signIn('operator');
  const cluster = `/clusters/${NS}/prod-east`;

  await page.goto('/');
  await expect(page.getByRole('heading', { name: '集群', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'prod-east' })).toBeVisible();
  await expectChinese(page, 'clusters');

  await page.goto(`${cluster}/node-pools`);
  await expect(page.getByRole('heading', { name: '节点池', level: 2 })).toBeVisible();
  await expect(page.getByRole('article', { name: 'prod-east-data' })).toBeVisible();
  await expectChinese(page, 'node pools');
  await snap(page, testInfo, 'zh-node-pools');

  await page
    .getByRole('article', { name: 'prod-east-data' })
    .getByRole('button', { name: '扩缩容', exact: true })
    .click();
  const scale = page.getByRole('dialog', { name: '扩缩容 prod-east-data' });
  await expect(scale.getByRole('status')).toBeVisible();
  await expectChinese(page, 'scale dialog');
  await scale.getByRole('button', { name: '取消' }).click();

  await page.goto(`${cluster}/node-pools/prod-east-data`);
  await expect(page.getByRole('table', { name: 'prod-east-data 的 machine' })).toBeVisible();
  await expectChinese(page, 'pool');

  await page.goto(`${cluster}/node-pools/prod-east-data/conditions`);
  await expect(page.getByRole('table').first()).toBeVisible();
  await expectChinese(page, 'pool conditions');

  // R-DISK-5: the legacy layout's migration plan.
  await page.goto(`${cluster}/node-pools/prod-east-legacy/disk-migration`);
  await expect(page.getByRole('region', { name: '第 2 步：将 maxSurge 设为 0' })).toBeVisible();
  await expectChinese(page, 'disk migration plan');

  await page.goto(`${cluster}/nodes`);
  await expect(page.getByRole('heading', { name: '节点', level: 2 })).toBeVisible();
  const firstMachine = page.getByRole('table').getByRole('link').first();
  await expect(firstMachine).toBeVisible();
  await expectChinese(page, 'nodes');
  await firstMachine.click();
  await expect(page.getByRole('link', { name: /^← 节点$/ })).toBeVisible();
  await expectChinese(page, 'machine');
  await snap(page, testInfo, 'zh-machine');

  await page.goto(`${cluster}/ip-pools`);
  await expect(page.getByRole('table', { name: 'prod-east 使用的 IP 池' })).toBeVisible();
  await expectChinese(page, 'IP pools');

  await page.goto(`${cluster}/node-pools/new`);
  await expect(page.getByRole('heading', { name: '添加工作节点池' })).toBeVisible();
  await expectChinese(page, 'add worker node pool');
  await snap(page, testInfo, 'zh-add-pool');
});
