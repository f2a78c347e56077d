import { expect, snap, test } from '../fixtures';

test('O-SCALE-UP with R-POOL-4: the pool is short, extend it inline, then follow the new machine until it is Ready', async ({
  page,
  signIn,
  nodePools,
}, testInfo) => {
  test.setTimeout(180_000);
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  const card = pools.card('prod-east-data');
  await expect(pools.replicas(card, 'Ready')).toHaveText('3');
  await card.getByRole('button', { name: 'Scale', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Scale prod-east-data' });
  // R-POOL-1: its 3 entries are held by its own 3 machines: none free, room for 3 replicas.
  await expect(dialog.getByRole('status')).toContainText(
    /: 0 of 3 entries free, room for 3 replicas of this pool/,
  );
  await dialog.getByRole('button', { name: 'One replica more' }).click();
  await expect(dialog.getByLabel('Replicas')).toHaveValue('4');
  // R-MD-1 / R-POOL-1: the rule's message at the field, and the way out beside it.
  await expect(dialog.getByLabel('Replicas')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByRole('button', { name: /^Extend IP pool by 1 entry$/ }).click();
  await expect(dialog.getByLabel('IP (Entry 1)')).not.toHaveValue('');
  await expect(dialog.getByLabel('Replicas')).toHaveAttribute('aria-invalid', 'false');
  await snap(page, testInfo, 'scale-extend');
  await dialog.getByRole('button', { name: 'Preview plan' }).click();
  await expect(dialog.getByRole('region', { name: 'Plan' })).toContainText('Append 1 entry');
  await snap(page, testInfo, 'scale-plan');
  await dialog.getByRole('button', { name: 'Scale', exact: true }).click();
  // Followed in the dialog, live from the stream, until the new machine is Running and Ready.
  const newMachines = dialog.getByRole('table', { name: 'New machines' });
  await expect(newMachines.getByRole('row')).toHaveCount(2);
  await expect(newMachines).toContainText(/prod-east-data-/);
  await snap(page, testInfo, 'scale-follow');
  await expect(dialog.getByRole('status')).toContainText(
    'Done: every new machine (1) is Running and its node Ready.',
    { timeout: 90_000 },
  );
  await expect(newMachines).toContainText('Running');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(pools.replicas(card, 'Replicas')).toHaveText('4');
  await expect(pools.replicas(card, 'Ready')).toHaveText('4');
  await expect(card).toContainText(/prod-east-data-ippool: 4\/4 used/);
});
