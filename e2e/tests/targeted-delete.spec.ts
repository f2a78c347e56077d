import { expect, expectUncovered, snap, test } from '../fixtures';

test('O-SCALE-DOWN-TARGETED (R-MD-6): delete exactly the selected machines, with the guards explained', async ({
  page,
  signIn,
  nodes,
  nodePools,
}, testInfo) => {
  test.setTimeout(180_000);
  await signIn('operator');
  const tab = nodes('dev-west');
  await tab.goto();
  const batch = tab.rowsOfPool('dev-west-full');
  await expect(batch).toHaveCount(4);
  // Every box is whole: the checkbox column is as wide as its boxes, in the sticky header too.
  await expectUncovered(page.getByRole('checkbox', { name: 'Select all shown machines' }));
  await expectUncovered(tab.select(await batch.first().getByRole('link').first().innerText()));
  // Nothing selected: the action says why it is off.
  await expect(tab.deleteSelected()).toBeDisabled();
  await expect(tab.deleteSelected()).toHaveAccessibleDescription(
    'Select the machines to delete first.',
  );

  // Machines of two pools: refused, with the rule.
  const cpName =
    (await tab.rowsOfPool('Control plane').first().getByRole('link').first().textContent()) ?? '';
  await tab.select(cpName).check();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Control-plane machines cannot be deleted here' }),
  ).toBeVisible();
  await tab.select(cpName).uncheck();

  const victim = (await batch.nth(1).getByRole('link').first().textContent()) ?? '';
  await tab.select(victim).check();
  await expect(tab.deleteSelected()).toBeEnabled();
  await tab.deleteSelected().click();
  const dialog = page.getByRole('dialog', { name: 'Delete 1 machine of dev-west-full' });
  await expect(dialog).toContainText('from 4 to 3');
  await expect(dialog.getByRole('list', { name: 'Selected machines' })).toContainText(victim);
  await snap(page, testInfo, 'targeted-delete');
  await dialog.getByRole('button', { name: 'Preview plan' }).click();
  await expect(dialog.getByRole('region', { name: 'Plan' })).toContainText(
    `Mark machine ${victim} for deletion`,
  );
  await dialog.getByRole('button', { name: 'Delete selected machines' }).click();
  await expect(dialog).toBeHidden();

  // Exactly that machine goes; the others stay.
  await expect(tab.row(victim)).toHaveCount(0, { timeout: 90_000 });
  await expect(batch).toHaveCount(3);
  const pools = nodePools('dev-west');
  await pools.goto();
  await expect(pools.replicas(pools.card('dev-west-full'), 'Replicas')).toHaveText('3');
});
