import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, snap, test } from '../fixtures';

/**
 * Issue 26 item 8: finding machines in a big cluster. The Nodes tab filtered by phase and by a
 * condition not in its healthy state, sorted by a column; the address holds it all, so the link
 * support staff copy opens the same rows in a new page, for a viewer too, in either language.
 *
 * dev-west's `dev-west-stall` pool has a machine DCS never places (T-1): it stays Provisioning,
 * Ready not True, while every other machine of the cluster runs.
 */

const NODES = '/clusters/cpaas-system/dev-west/nodes';

const machineRows = (page: Page, table: Locator) =>
  table.getByRole('row').filter({ has: page.getByRole('link') });
/** The machines' names, top to bottom (each row's first link). */
const namesOf = (page: Page, table: Locator) =>
  machineRows(page, table).evaluateAll((rows) =>
    rows.map((r) => r.querySelector('a')?.textContent ?? ''),
  );
const ipsOf = (page: Page, table: Locator) =>
  machineRows(page, table).evaluateAll((rows) =>
    rows.map((r) => r.querySelectorAll('td')[6]?.textContent ?? ''),
  );
/** IPv4 addresses by their numbers, highest first ('—' last). */
const byIpDescending = (ips: string[]) =>
  [...ips].sort((a, b) => {
    const n = (ip: string) =>
      ip.includes('.') ? ip.split('.').reduce((x, o) => x * 256 + Number(o), 0) : -1;
    return n(b) - n(a);
  });

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
/** Phases are several: their menu stays open until Escape. */
async function togglePhase(page: Page, label: string, phase: string) {
  await choose(page, label, phase);
  await page.keyboard.press('Escape');
}

test('the operator filters by phase and condition, sorts by IP, and the copied address opens the same rows in a new page; so does a viewer', async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(180_000);
  await signIn('operator');
  await page.goto(NODES);
  const table = page.getByRole('table', { name: 'Machines of dev-west' });
  await expect(machineRows(page, table).first()).toBeVisible({ timeout: 60_000 });

  // Sorted by IP, highest first: two clicks on the header (ascending, then descending).
  const ipHeader = table.getByRole('columnheader', { name: 'IP' });
  await ipHeader.getByRole('button').click();
  await expect(ipHeader).toHaveAttribute('aria-sort', 'ascending');
  await ipHeader.getByRole('button').click();
  await expect(ipHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(async () => {
    const ips = await ipsOf(page, table);
    expect(ips.length).toBeGreaterThan(3);
    expect(ips).toEqual(byIpDescending(ips));
  }).toPass({ timeout: 15_000 });

  // The machine that never leaves Provisioning, alone once the others run.
  await togglePhase(page, 'Phase', 'Provisioning');
  await expect(machineRows(page, table)).toHaveCount(1, { timeout: 120_000 });
  const stuck = (await namesOf(page, table))[0] ?? '';
  expect(stuck).toMatch(/^dev-west-stall-/);
  await choose(page, 'Condition', 'Ready not healthy');
  await expect(machineRows(page, table)).toHaveCount(1);
  // Running machines have Ready True: with that phase instead, none is left.
  await togglePhase(page, 'Phase', 'Running');
  await togglePhase(page, 'Phase', 'Provisioning');
  await expect(machineRows(page, table)).toHaveCount(0);
  await togglePhase(page, 'Phase', 'Running');
  await togglePhase(page, 'Phase', 'Provisioning');
  await expect(machineRows(page, table)).toHaveCount(1);
  await expect(page).toHaveURL(/[?&]phase=Provisioning(&|$)/);
  await expect(page).toHaveURL(/[?&]cond=Ready(&|$)/);
  await expect(page).toHaveURL(/[?&]sort=-ip(&|$)/);
  await snap(page, testInfo, 'find-machines');
  await expectAccessible(page, testInfo, 'find-machines');

  // The link support staff copy: a new page of the same session shows the same rows.
  const shared = page.url();
  const rows = await namesOf(page, table);
  const other = await page.context().newPage();
  await other.goto(shared);
  const again = other.getByRole('table', { name: 'Machines of dev-west' });
  await expect.poll(() => namesOf(other, again), { timeout: 30_000 }).toEqual(rows);
  await expect(again.getByRole('columnheader', { name: 'IP' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect(other.getByRole('combobox', { name: 'Phase' })).toHaveText('Provisioning');
  await expect(other.getByRole('combobox', { name: 'Condition' })).toHaveText('Ready not healthy');
  await other.close();

  // A viewer, who may change nothing, opens the same link and sees the same.
  await signIn('viewer');
  await page.goto(shared);
  await expect.poll(() => namesOf(page, table), { timeout: 30_000 }).toEqual(rows);
  // Without a phase, sorted as before: every machine of the cluster, highest IP first.
  await togglePhase(page, 'Phase', 'Provisioning');
  await choose(page, 'Condition', 'Any condition');
  await expect(page).not.toHaveURL(/phase=|cond=/);
  await expect.poll(async () => (await namesOf(page, table)).length).toBeGreaterThan(3);
  const ips = await ipsOf(page, table);
  expect(ips).toEqual(byIpDescending(ips));
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('运维人员按阶段和状态条件筛选、按 IP 排序，复制的地址在新页面中显示相同的行', async ({
    page,
    signIn,
  }) => {
    test.setTimeout(180_000);
    await signIn('operator');
    await page.goto(`${NODES}?phase=Provisioning&cond=Ready&sort=-ip`);
    const table = page.getByRole('table', { name: 'dev-west 的 machine' });
    await expect(machineRows(page, table)).toHaveCount(1, { timeout: 120_000 });
    await expect(page.getByRole('combobox', { name: '阶段' })).toHaveText('Provisioning');
    await expect(page.getByRole('combobox', { name: '状态条件' })).toHaveText('Ready 不健康');
    await expect(table.getByRole('columnheader', { name: 'IP' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await choose(page, '状态条件', '任意状态条件');
    await togglePhase(page, '阶段', 'Provisioning');
    await table.getByRole('columnheader', { name: '名称' }).getByRole('button').click();
    // Name ascending is the list's own order: nothing left in the address.
    await expect(page).toHaveURL(/\/nodes$/);
    await table.getByRole('columnheader', { name: '名称' }).getByRole('button').click();
    await expect(page).toHaveURL(/\?sort=-name$/);
    const rows = await namesOf(page, table);
    expect(rows.length).toBeGreaterThan(3);
    expect(rows).toEqual([...rows].sort().reverse());
    const other = await page.context().newPage();
    await other.goto(page.url());
    await expect
      .poll(() => namesOf(other, other.getByRole('table', { name: 'dev-west 的 machine' })), {
        timeout: 30_000,
      })
      .toEqual(rows);
  });
});
