import type { Page } from '@playwright/test';
import { expect, NS, snap, test } from '../fixtures';

// Issue 27: single sign-on through the embedded OpenID provider (oidc-provider), in Chromium,
// through the provider's own login and consent pages, as the viewer and as an operator.
test.use({ sso: true, stackName: 'sso' });

const POOL = 'dev-west-full';
const poolPage = `/clusters/${NS}/dev-west/node-pools/${POOL}`;

/** From the console's sign-in page through the provider's pages, back to the console. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to the demo provider' })).toBeVisible();
  await page.getByLabel('Username').fill(login);
  await page.getByLabel('Password').fill(login);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Allow access?' })).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();
}

test('single sign-on: the viewer’s actions stay disabled, the operator’s write carries their identity, sign-out ends both sessions', async ({
  page,
  nodePools,
  stack,
}, testInfo) => {
  test.setTimeout(240_000);
  expect(stack.issuer).toBeTruthy();
  await page.goto(`/clusters/${NS}/dev-west/node-pools`);
  await signInAtProvider(page, 'viewer');
  // Back where the viewer wanted to go, as viewer@dcs.example with the group the cluster maps.
  await expect(page).toHaveURL(new RegExp(`/clusters/${NS}/dev-west/node-pools$`));
  const pools = nodePools('dev-west');
  const card = pools.card(POOL);
  await expect(card.getByRole('button', { name: 'Scale', exact: true })).toBeDisabled();
  await expect(pools.addWorkerNodePool()).toBeDisabled();
  await page.getByRole('button', { name: 'Session of viewer@dcs.example' }).click();
  const menu = page.getByRole('menu');
  await expect(menu).toContainText('Single sign-on');
  await expect(menu.getByLabel('Identity provider claims')).toContainText(
    'Username claim “email”viewer@dcs.example',
  );
  await expect(menu.getByLabel('Identity provider claims')).toContainText(
    'dcs-viewers (prefix oidc:)',
  );
  await snap(page, testInfo, 'sso-viewer-menu');

  // Sign-out: here, then at the provider (its page), back to the console's sign-in page.
  await menu.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('link', { name: 'Sign in with single sign-on' })).toBeVisible();

  // The operator, through the provider's login page again (the provider's session ended too).
  await page.goto(poolPage.replace(`/${POOL}`, ''));
  await signInAtProvider(page, 'operator');
  await expect(page.getByRole('button', { name: 'Session of operator@dcs.example' })).toBeVisible();
  const from = Number(await pools.replicas(card, 'Replicas').textContent());
  await card.getByRole('button', { name: 'Scale', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Scale ${POOL}` });
  await dialog.getByRole('button', { name: 'One replica more' }).click();
  await dialog.getByRole('button', { name: 'Preview plan' }).click();
  await expect(dialog.getByRole('region', { name: 'Plan' })).toContainText('O-SCALE-UP');
  await dialog.getByRole('button', { name: 'Scale', exact: true }).click();
  await expect(dialog.getByRole('table', { name: 'New machines' })).toContainText(`${POOL}-`);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  // The audit timeline names the operator as the provider and the cluster know them.
  await page.goto(poolPage);
  const record = `operator@dcs.example scaled ${POOL} ${String(from)} → ${String(from + 1)} (O-SCALE-UP)`;
  await expect(
    page
      .getByRole('table', { name: 'Timeline' })
      .getByRole('row')
      .filter({ hasText: record })
      .filter({ hasText: 'Applied' }),
  ).toHaveCount(1);
  await snap(page, testInfo, 'sso-operator-timeline');

  // The kubeconfig for kubectl signs in through the same provider, with no secret in it.
  await page.getByRole('button', { name: 'Session of operator@dcs.example' }).click();
  const download = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: /Download kubeconfig/ }).click(),
  ]).then(([d]) => d);
  expect(download.suggestedFilename()).toBe('kubeconfig-oidc.yaml');
});
