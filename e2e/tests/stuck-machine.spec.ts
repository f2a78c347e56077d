import { expect, expectAccessible, snap, test } from '../fixtures';

// The simulator writes timestamps on its own fast clock while the BFF judges "stuck" on the wall
// clock, so at a time scale above 1 no machine ever counts as stuck: fixme until the BFF follows
// the cluster's clock (reported with issue 6).
test.fixme('T-1: a machine stuck in Provisioning shows its diagnosis and checklist; its pool card flags it', async ({
  page,
  signIn,
  nodePools,
}, testInfo) => {
  test.setTimeout(180_000);
  await signIn('operator');
  const pools = nodePools('dev-west');
  await pools.goto();
  const card = pools.card('dev-west-stall');
  // Stuck after 10 simulated minutes (20 s here): the card flags it as soon as the view says so.
  await expect(card.getByText(/^\d+ stuck$/)).toBeVisible({ timeout: 90_000 });
  await expect(card).toContainText(/placement on DCS \(T-1\)/);
  await snap(page, testInfo, 'stuck-card');

  await card.getByRole('link', { name: 'dev-west-stall' }).click();
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
