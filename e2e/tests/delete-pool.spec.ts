import { expect, snap, test } from '../fixtures';

test('O-DELETE-POOL, U-5: the dialog names the machines, offers the clean-up, and is confirmed by typing the name', async ({
  page,
  signIn,
  nodePools,
}, testInfo) => {
  test.setTimeout(180_000);
  await signIn('operator');
  const pools = nodePools('dev-west');
  await pools.goto();
  const card = pools.card('dev-west-k135');
  await card.getByRole('button', { name: 'Delete dev-west-k135' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete worker node pool dev-west-k135' });
  const machines = dialog.getByRole('list', { name: 'Machines that will be drained and deleted' });
  await expect(machines.getByRole('listitem')).toHaveCount(2);
  await expect(dialog.getByRole('checkbox', { name: /Machine template/ })).toBeChecked();
  const preview = dialog.getByRole('button', { name: 'Preview plan' });
  await expect(preview).toBeDisabled();
  await dialog.getByLabel('Type dev-west-k135 to confirm').fill('dev-west-k13');
  await expect(preview).toBeDisabled();
  await dialog.getByLabel('Type dev-west-k135 to confirm').fill('dev-west-k135');
  await snap(page, testInfo, 'delete-dialog');
  await preview.click();
  await expect(dialog.getByRole('region', { name: 'Plan' })).toContainText('O-DELETE-POOL');
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toBeHidden({ timeout: 90_000 });
});
