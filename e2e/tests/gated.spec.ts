import { expect, expectAccessible, snap, test } from '../fixtures';

// This project's stack runs the simulator with --provider-version 1.0.12 (playwright.config.ts).
test('R-VER-1: below provider 1.0.13 the console explains the YAML workflow and offers no forms', async ({
  page,
  signIn,
  nodePools,
}, testInfo) => {
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  const notice = page.getByRole('region', {
    name: 'Node-pool forms need DCS provider 1.0.13 or later',
  });
  await expect(notice).toContainText('1.0.12');
  await expect(notice).toContainText('kubectl apply');
  await expect(pools.addWorkerNodePool()).toBeDisabled();
  await expect(pools.addWorkerNodePool()).toHaveAccessibleDescription(/R-VER-1/);
  const card = pools.card('prod-east-data');
  await expect(card.getByRole('button', { name: 'Scale', exact: true })).toBeDisabled();
  // Everything stays visible.
  await expect(pools.replicas(card, 'Replicas')).toHaveText(/^\d+$/);
  await snap(page, testInfo, 'gated');
  await expectAccessible(page, testInfo, 'gated');
});
