import type { Locator, Page } from '@playwright/test';
import { NS, expect, expectAccessible, snap, test } from '../fixtures';

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

/**
 * Issue 12: the Conditions column of a pool's machines table at 1280 px shows the whole
 * diagnosis chip ("Placement stall on DCS"), wrapped rather than cut, in English and Chinese;
 * its tooltip holds the whole diagnosis.
 */
async function expectWholeChip(page: Page, table: Locator, label: string): Promise<void> {
  const chip = table.locator('[data-row-problem="diagnosis"]').filter({ hasText: label });
  await expect(chip).toHaveCount(1, { timeout: 90_000 });
  await expect(chip).toBeVisible();
  await expect(chip).toHaveText(label);
  // Nothing of the label is cut: it fits its chip, and the chip its cell.
  const fit = await chip.evaluate((el) => {
    const text = el.querySelector('.MuiChip-label') ?? el;
    const cell = el.closest('td')?.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    return {
      label: text.scrollWidth <= text.clientWidth && text.scrollHeight <= text.clientHeight + 1,
      cell: cell !== undefined && box.left >= cell.left - 0.5 && box.right <= cell.right + 0.5,
    };
  });
  expect(fit).toEqual({ label: true, cell: true });
  // The class, not one chip: no chip of the table (phases, Node states, badges) and no column
  // header is cut short.
  const cut = await table.evaluate((t) =>
    [...t.querySelectorAll('.MuiChip-label, th')]
      // Text only: the select-all checkbox's cell overflows by its ripple, not by any word.
      .filter((el) => el.textContent !== '' && el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent),
  );
  expect(cut).toEqual([]);
  await chip.hover();
  await expect(page.getByRole('tooltip')).toContainText(label);
}

test.describe('the Conditions column at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('shows the whole "Placement stall on DCS" chip of the stuck machine', async ({
    page,
    signIn,
  }, testInfo) => {
    test.setTimeout(150_000);
    await signIn('operator');
    await page.goto(`/clusters/${NS}/dev-west/node-pools/dev-west-stall`);
    const table = page.getByRole('table', { name: 'Machines of dev-west-stall' });
    await expectWholeChip(page, table, 'Placement stall on DCS');
    await expect(page.getByRole('tooltip')).toContainText('placement stall on the DCS platform');
    await snap(page, testInfo, 'conditions-column-1280');
  });

  test.describe('in Chinese', () => {
    test.use({ locale: 'zh-CN' });
    test('显示完整的“DCS 放置停滞”标签', async ({ page, signIn }, testInfo) => {
      test.setTimeout(150_000);
      await signIn('operator');
      await page.goto(`/clusters/${NS}/dev-west/node-pools/dev-west-stall`);
      const table = page.getByRole('table', { name: 'dev-west-stall 的 machine' });
      await expectWholeChip(page, table, 'DCS 放置停滞');
      await snap(page, testInfo, 'conditions-column-1280-zh');
    });
  });
});
