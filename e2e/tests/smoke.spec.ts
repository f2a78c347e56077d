import { expect, test } from '@playwright/test';

test('the console shell loads and names the Node Pools screen', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'DCS Node Pools' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Node Pools', exact: true })).toBeVisible();
});
