import { expect, expectAccessible, snap, test } from '../fixtures';

// The simulator writes wall-clock timestamps and the stack's BFF runs with `--stuck-after` scaled
// to the simulator's time scale (10 simulated minutes), as `pnpm start` does.
test('T-1: a machine stuck in Provisioning shows its diagnosis and checklist; its pool card flags it', async ({
  page,
  signIn,
  nodePools,
}, testInfo) => {
  test.setTimeout(180_000);
  await signIn('operator');
  const pools = nodePools('dev-west');
  await pools.goto();
  const card = pools.card('dev-west-stall');
  // Stuck after 10 simulated minutes (20 s at the stack's time scale of 30): the card flags it as
  // soon as the view says so.
  await expect(card.getByText(/^\d+ stuck$/)).toBeVisible({ timeout: 90_000 });
  await expect(card).toContainText(/placement on DCS \(T-1\)/);
  await snap(page, testInfo, 'stuck-card');

  await card.getByRole('link', { name: 'dev-west-stall', exact: true }).click();
  const machines = page.getByRole('table', { name: 'Machines of dev-west-stall' });
  const stuck = machines.getByRole('row').filter({ hasText: 'Placement stall on DCS' });
  await expect(stuck).toHaveCount(1);
  await stuck.getByRole('link').first().click();
  const diagnosis = page.getByRole('region', { name: 'Diagnosis' });
  await expect(diagnosis).toContainText(
    'placement stall on the DCS platform, not a controller fault',
  );
  for (const check of ['datastores', 'host CPU and memory', 'rebalance', 'escalate'])
    await expect(diagnosis.getByRole('listitem').filter({ hasText: check })).toBeVisible();
  await snap(page, testInfo, 'stuck-machine');
  await expectAccessible(page, testInfo, 'stuck-machine');
});
