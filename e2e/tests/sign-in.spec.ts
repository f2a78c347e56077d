import { expect, expectAccessible, snap, test } from '../fixtures';

test('sign in with a token (token mode), see who you are, sign out', async ({
  page,
  stack,
}, testInfo) => {
  await page.goto('/clusters/cpaas-system/prod-east/node-pools');
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await snap(page, testInfo, 'sign-in');
  await expectAccessible(page, testInfo, 'sign-in');

  await page.getByLabel('Token').fill('not-a-token');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('did not accept this token');

  await page.getByLabel('Token').fill(stack.tokens.operator);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Back where the user wanted to go.
  await expect(page).toHaveURL(/\/clusters\/cpaas-system\/prod-east\/node-pools$/);
  await expect(page.getByRole('heading', { name: 'Node Pools', level: 2 })).toBeVisible();

  await page.getByRole('button', { name: /^Session of / }).click();
  const menu = page.getByRole('menu');
  await expect(menu).toContainText('Token mode');
  await expect(menu).toContainText(/operator/);
  await snap(page, testInfo, 'session-menu');
  await menu.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});
