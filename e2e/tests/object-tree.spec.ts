import { NS, expect, expectAccessible, expectChinese, snap, test } from '../fixtures';

/**
 * Issue 26, item 5: the object tree of a cluster, as `clusterctl describe cluster` shows it; its
 * options as toggles, each line linking to its page, the whole text copied for a support ticket.
 */

test('the operator opens the object tree of prod-east, toggles grouping, copies it as text and follows a machine’s line', async ({
  page,
  context,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn('operator');
  await page.goto(`/clusters/${NS}/prod-east/node-pools`);
  await page
    .getByRole('tablist', { name: 'Cluster sections' })
    .getByRole('tab', { name: 'Object Tree' })
    .click();
  const tree = page.getByRole('table', { name: 'Object tree of prod-east' });
  await expect(tree).toBeVisible();
  await expect(tree.getByRole('columnheader', { name: 'NAME' })).toBeVisible();
  await expect(tree.getByRole('row').nth(1)).toContainText('Cluster/prod-east');
  // The control plane and the pools, each a link to its pool page.
  await expect(
    tree.getByRole('link', { name: /^ControlPlane - KubeadmControlPlane\// }),
  ).toBeVisible();
  await expect(tree.getByRole('link', { name: 'MachineDeployment/prod-east-data' })).toBeVisible();
  await expect(tree).toContainText('Workers');
  // Grouped by default: healthy machines share "N Machines..." lines.
  await expect(tree.getByText(/^\d+ Machines\.\.\.$/).first()).toBeVisible({ timeout: 30_000 });
  await snap(page, testInfo, 'object-tree');
  await page.screenshot({ path: testInfo.outputPath('object-tree-en.png'), fullPage: true });
  await expectAccessible(page, testInfo, 'object-tree');

  // Grouping off: every machine has its own line, linking to its machine page.
  await page.getByRole('switch', { name: 'Group machines with the same status' }).click();
  await expect(page).toHaveURL(/grouping=false/);
  await expect(tree.getByText(/^\d+ Machines\.\.\.$/)).toHaveCount(0);
  const machines = tree.getByRole('link', { name: /^Machine\// });
  await expect(machines.first()).toBeVisible();

  await page.getByRole('button', { name: 'Copy as text' }).click();
  await expect(page.getByRole('button', { name: 'Copied as text' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const lines = copied.split('\n');
  expect(lines[0]).toMatch(
    /^NAME +(REPLICAS +AVAILABLE +READY +UP TO DATE +STATUS|READY +SEVERITY) +REASON +SINCE +MESSAGE$/,
  );
  expect(lines[1]).toMatch(/^Cluster\/prod-east /);
  expect(copied).toMatch(/\n├─ControlPlane - KubeadmControlPlane\/prod-east/);
  expect(copied).toContain('└─Workers');
  expect(copied).toMatch(/\n {2}[├└]─MachineDeployment\/prod-east-data/);

  const name = ((await machines.first().textContent()) ?? '').replace(/^Machine\//, '');
  await machines.first().click();
  await expect(page).toHaveURL(new RegExp(`/nodes/${name}$`));
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the object tree speaks Chinese but for the glossary and the objects', async ({
    page,
    signIn,
  }, testInfo) => {
    await signIn('operator');
    await page.goto(`/clusters/${NS}/prod-east/tree?conditions=KubeadmControlPlane`);
    const tree = page.getByRole('table', { name: 'prod-east 的对象树' });
    await expect(tree).toBeVisible();
    await expect(
      tree.getByRole('link', { name: /^ControlPlane - KubeadmControlPlane\// }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: '复制为文本' })).toBeVisible();
    await snap(page, testInfo, 'object-tree-zh');
    await page.screenshot({ path: testInfo.outputPath('object-tree-zh.png'), fullPage: true });
    await expectChinese(page, 'object tree');
  });
});
