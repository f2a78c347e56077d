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

test('issue 12: the Cluster’s own conditions on its page; a ?condition= link scrolls to its row and highlights it; "Link for support" copies the absolute URL', async ({
  page,
  context,
  signIn,
}, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn('operator');
  await page.goto('/clusters/cpaas-system/prod-east/node-pools');
  const table = page.getByRole('table', { name: 'Conditions of Cluster prod-east' });
  await expect(table.getByRole('cell', { name: 'Ready', exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: 'ControlPlaneReady', exact: true })).toBeVisible();

  // Support staff paste a link to one condition: the row is scrolled into view and marked.
  const rowOf = (type: string) =>
    table.getByRole('row').filter({ has: page.getByRole('cell', { name: type, exact: true }) });
  await page.goto('/clusters/cpaas-system/prod-east/node-pools?condition=Cluster/prod-east/Ready');
  await expect(rowOf('Ready')).toHaveAttribute('aria-current', 'location');
  await expect(rowOf('Ready')).toBeInViewport();
  await expect(rowOf('ControlPlaneReady')).not.toHaveAttribute('aria-current', 'location');
  await snap(page, testInfo, 'cluster-condition-deep-link');

  // "Link for support" of another row copies that row's absolute URL.
  const row = rowOf('ControlPlaneReady');
  await row.getByRole('button', { name: 'Link for support' }).click();
  await expect(row.getByRole('button', { name: /Copied/ })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const url = new URL(copied);
  expect(url.origin).toBe(new URL(page.url()).origin);
  expect(url.pathname).toBe('/clusters/cpaas-system/prod-east/node-pools');
  expect(url.searchParams.get('condition')).toBe('Cluster/prod-east/ControlPlaneReady');
  // The copied link works.
  await page.goto(copied);
  await expect(rowOf('ControlPlaneReady')).toHaveAttribute('aria-current', 'location');
  await expect(rowOf('ControlPlaneReady')).toBeInViewport();
});
