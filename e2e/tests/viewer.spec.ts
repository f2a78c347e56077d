import { readFile } from 'node:fs/promises';
import { expect, expectAccessible, snap, test } from '../fixtures';

test('a viewer sees everything, and every mutating action is disabled with the reason', async ({
  page,
  signIn,
  nodePools,
  nodes,
}, testInfo) => {
  await signIn('viewer');
  const pools = nodePools('prod-east');
  await pools.goto();
  const data = pools.card('prod-east-data');
  await expect(pools.replicas(data, 'Replicas')).toHaveText(/^\d+$/);
  for (const name of ['Scale', 'Upgrade']) {
    const button = data.getByRole('button', { name, exact: true });
    await expect(button).toBeDisabled();
    // The access review that refused it: verb and resource, as the BFF reports them.
    await expect(button).toHaveAccessibleDescription(/patch\b.*machinedeployment/i);
  }
  await expect(data.getByRole('button', { name: 'Delete prod-east-data' })).toBeDisabled();
  await expect(pools.addWorkerNodePool()).toBeDisabled();
  await expect(pools.addWorkerNodePool()).toHaveAccessibleDescription(/access review/);
  await snap(page, testInfo, 'viewer-node-pools');
  await expectAccessible(page, testInfo, 'viewer-node-pools');

  // Reading is not restricted: conditions, machines, YAML.
  await data.getByRole('link', { name: 'Conditions' }).click();
  await expect(
    page.getByRole('table', { name: /^Conditions of MachineDeployment / }),
  ).toBeVisible();
  const tab = nodes('prod-east');
  await tab.goto();
  await expect(tab.rowsOfPool('prod-east-data').first()).toContainText('Running');

  // Support: the whole cluster in one file, for a viewer too; no Secret contents in it.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export cluster diagnostics' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('diagnostics-cpaas-system-prod-east.json');
  const text = await readFile(await download.path(), 'utf8');
  const bundle = JSON.parse(text) as { pools: { id: string }[]; machines: unknown[] };
  expect(bundle.pools.map((p) => p.id)).toEqual(
    expect.arrayContaining(['control-plane', 'prod-east-data', 'prod-east-legacy']),
  );
  expect(bundle.machines.length).toBeGreaterThanOrEqual(3);
  expect(text).not.toContain('managedFields');
});
