import type { Page } from '@playwright/test';
import { englishOutsideGlossary } from '@dcs/domain';
import { NS, expect, snap, test } from '../fixtures';

// Chinese, complete: every screen's own words (headings, tabs, buttons, column headers, labels,
// terms, accessible names) are Chinese but for the glossary (packages/domain/src/i18n/glossary.ts).
// Data (object names, versions, addresses) is left as it is written in the cluster.

/** The console's own words on screen: what names a control, a column, a section or a field. */
async function ownWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector =
      'h1,h2,h3,h4,h5,h6,button,[role=tab],th,label,legend,dt,[role=menuitem],[role=columnheader]';
    const texts = [...document.querySelectorAll<HTMLElement>(selector)]
      .filter((e) => e.offsetParent !== null || e.getClientRects().length > 0)
      .map((e) => e.innerText);
    const labels = [...document.querySelectorAll<HTMLElement>('[aria-label]')].map(
      (e) => e.getAttribute('aria-label') ?? '',
    );
    return [...texts, ...labels].map((s) => s.trim()).filter((s) => s !== '');
  });
}

async function expectChinese(page: Page, screen: string): Promise<void> {
  const offenders = (await ownWords(page))
    .map((text) => ({ text, english: englishOutsideGlossary(text) }))
    .filter((o) => o.english.length > 0);
  expect(offenders, `English outside the glossary on ${screen}`).toEqual([]);
}

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
