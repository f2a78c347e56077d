import { expect, expectAccessible, snap, test } from '../fixtures';

test('U-6: read the control plane’s conditions, problems first, with relative and absolute times', async ({
  page,
  signIn,
  nodePools,
}, testInfo) => {
  await signIn('operator');
  const pools = nodePools('dev-west');
  await pools.goto();
  await pools.controlPlane().getByRole('link', { name: 'Conditions' }).click();
  await expect(page).toHaveURL(/\/node-pools\/control-plane\/conditions$/);
  const table = page.getByRole('table', { name: /^Conditions of KubeadmControlPlane / });
  await expect(table).toBeVisible();
  for (const column of ['Type', 'Status', 'Severity', 'Reason', 'Message', 'Last transition'])
    await expect(table.getByRole('columnheader', { name: column })).toBeVisible();
  await expect(table.getByRole('cell', { name: 'Ready', exact: true })).toBeVisible();
  // Every machine of the pool has its own table too.
  await expect(page.getByRole('table', { name: /^Conditions of Machine / })).toHaveCount(3);
  await snap(page, testInfo, 'conditions');
  await expectAccessible(page, testInfo, 'conditions');

  // Support staff paste the deep link: it opens the same screen.
  const url = page.url();
  await page.goto('/');
  await page.goto(url);
  await expect(table).toBeVisible();
});
