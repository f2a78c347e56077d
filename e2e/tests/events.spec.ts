import { NS, expect, snap, test } from '../fixtures';

// Issue 26, item 7: the Events of every object on its page — a machine's (its Machine and
// DCSMachine) and a pool's — from both Event APIs, newest first, filterable by type and reason,
// read again while the page is open. As the viewer: reading Events is for every user RBAC lets.

test('a machine’s page lists its Events and its infrastructure’s, filterable by type and reason; a pool’s page its objects’', async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  await signIn('viewer');
  await page.goto(`/clusters/${NS}/prod-east/node-pools/prod-east-data`);
  const machines = page.getByRole('table', { name: 'Machines of prod-east-data' });
  await machines.getByRole('row').nth(1).getByRole('link').first().click();
  await expect(page).toHaveURL(/\/nodes\/prod-east-data-/);

  const events = page.getByRole('region', { name: 'Events' });
  const table = events.getByRole('table', { name: 'Events' });
  // The Machine controller's Event and the DCS provider's, about two objects of the page.
  await expect(table).toContainText('SuccessfulSetNodeRef', { timeout: 60_000 });
  await expect(table).toContainText('VMRunning');
  await expect(table).toContainText(/Machine\/prod-east-data-/);
  await expect(table).toContainText(/DCSMachine\/prod-east-data-/);
  await expect(events).toContainText('Live: read again every 5 s');
  await snap(page, testInfo, 'machine-events');

  // A running machine has no Warning: the filter says so rather than showing an empty table.
  await events.getByRole('button', { name: /^Warnings \(\d+\)$/ }).click();
  await expect(events).toContainText(/No event matches the filter \(\d+ in all\)\./);
  await events.getByRole('button', { name: /^All \(\d+\)$/ }).click();
  await events.getByRole('combobox', { name: 'Reason' }).click();
  await page.getByRole('option', { name: 'VMRunning', exact: true }).click();
  const rows = table.getByRole('row');
  await expect(rows.nth(1)).toContainText('VMRunning');
  for (const text of (await rows.allInnerTexts()).slice(1)) expect(text).toContain('VMRunning');

  // The control plane's page: while its first machines came up, the KubeadmControlPlane
  // controller warned that they were not healthy yet (the Event stays for its TTL, an hour).
  await page.goto(`/clusters/${NS}/prod-east/node-pools/control-plane`);
  const poolEvents = page.getByRole('region', { name: 'Events' });
  await poolEvents.getByRole('button', { name: /^Warnings \(\d+\)$/ }).click();
  const warnings = poolEvents.getByRole('table', { name: 'Events' });
  await expect(warnings).toContainText('ControlPlaneUnhealthy', { timeout: 60_000 });
  await expect(warnings).toContainText('KubeadmControlPlane/prod-east-control-plane');
  for (const text of (await warnings.getByRole('row').allInnerTexts()).slice(1))
    expect(text).toMatch(/^Warning/);
  await snap(page, testInfo, 'pool-events-warnings');
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('machine 页面的事件：按类型筛选', async ({ page, signIn }, testInfo) => {
    test.setTimeout(120_000);
    await signIn('operator');
    await page.goto(`/clusters/${NS}/prod-east/node-pools/prod-east-data`);
    const machines = page.getByRole('table', { name: 'prod-east-data 的 machine' });
    await machines.getByRole('row').nth(1).getByRole('link').first().click();
    const events = page.getByRole('region', { name: '事件' });
    await expect(events.getByRole('table', { name: '事件' })).toContainText('VMRunning', {
      timeout: 60_000,
    });
    await events.getByRole('button', { name: /^警告（\d+）$/ }).click();
    await expect(events).toContainText(/没有符合筛选条件的事件（共 \d+ 个）。/);
    await snap(page, testInfo, 'machine-events-zh');
  });
});
