import { expect, expectAccessible, snap, test } from '../fixtures';

test('switch to Simplified Chinese and back', async ({ page, signIn, consolePage }, testInfo) => {
  await signIn('operator');
  await page.goto('/clusters/cpaas-system/prod-east/node-pools');
  await expect(page.getByRole('heading', { name: 'Node Pools', level: 2 })).toBeVisible();
  await consolePage.switchLanguage('简体中文');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('link', { name: '集群', exact: true })).toBeVisible();
  // Screen words are translated; only the glossary's terms stay English (chinese.spec.ts).
  await expect(page.getByRole('tab', { name: '节点池' })).toBeVisible();
  await expect(page.getByRole('button', { name: '添加工作节点池' })).toBeVisible();
  await expect(page.getByRole('article', { name: '控制平面' })).toContainText('副本数');
  await snap(page, testInfo, 'node-pools-zh');
  await expectAccessible(page, testInfo, 'node-pools-zh');

  // The choice is kept.
  await page.reload();
  await expect(page.getByRole('link', { name: '集群', exact: true })).toBeVisible();
  await consolePage.switchLanguage('English');
  await expect(page.getByRole('link', { name: 'Clusters' })).toBeVisible();
});

test.describe('with a Chinese browser', () => {
  test.use({ locale: 'zh-CN' });
  test('the browser’s language is the default', async ({ page, signIn }) => {
    await signIn('operator');
    await page.goto('/');
    await expect(page.getByRole('heading', { name: '集群', level: 1 })).toBeVisible();
  });
});
