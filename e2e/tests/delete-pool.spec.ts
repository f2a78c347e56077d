import { expect, kubectl, snap, test } from '../fixtures';

test('O-DELETE-POOL, U-5: the dialog names the machines, offers the clean-up, and is confirmed by typing the name; the pool’s health check goes with it', async ({
  page,
  signIn,
  nodePools,
  stack,
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
  const plan = dialog.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText('O-DELETE-POOL');
  // The pool's own health check goes with it (the demo's dev-west-k135-mhc).
  await expect(plan).toContainText('Delete MachineHealthCheck dev-west-k135-mhc of dev-west-k135');
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toBeHidden({ timeout: 90_000 });
  await expect
    .poll(async () =>
      (await kubectl(stack.kubeconfig, 'get', 'machinehealthchecks', '-A', '-o', 'name')).trim(),
    )
    .not.toContain('dev-west-k135-mhc');
});
