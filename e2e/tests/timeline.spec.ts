import type { Locator, Page } from '@playwright/test';
import { NS, expect, snap, test } from '../fixtures';

// Issue 12, the audit timeline: a console operation is recorded in the management cluster (who,
// which operation, replicas from → to), the machines' phase transitions follow it (derived from
// the Machines: creation, conditions, lastUpdated), it filters by user and operation, and a viewer
// reads the same. dev-west-full: 4 of its 5 IP entries claimed, so one replica more needs no
// extension (targeted-delete.spec may have left it at 3: the test reads the count it starts from).

const POOL = 'dev-west-full';
const poolPage = `/clusters/${NS}/dev-west/node-pools/${POOL}`;

/** The simulator's users, as the API server's TokenReview names them (packages/simulator). */
const OPERATOR = 'sim-operator';

const timelineOf = (page: Page, name: string): Locator => page.getByRole('table', { name });

/** Picks an option of one of the timeline's filters (MUI Select: a combobox and a listbox). */
async function pick(page: Page, filter: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: filter }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(page.getByRole('listbox')).toBeHidden();
}

test('O-SCALE-UP on the timeline: the console record, then the new machine’s phase transitions; filters; a viewer sees it', async ({
  page,
  signIn,
  nodePools,
}, testInfo) => {
  test.setTimeout(240_000);
  await signIn('operator');
  const pools = nodePools('dev-west');
  await pools.goto();
  const card = pools.card(POOL);
  const from = Number(await pools.replicas(card, 'Replicas').textContent());
  const to = from + 1;
  await card.getByRole('button', { name: 'Scale', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Scale ${POOL}` });
  await dialog.getByRole('button', { name: 'One replica more' }).click();
  await expect(dialog.getByLabel('Replicas')).toHaveValue(String(to));
  await dialog.getByRole('button', { name: 'Preview plan' }).click();
  await expect(dialog.getByRole('region', { name: 'Plan' })).toContainText('O-SCALE-UP');
  await dialog.getByRole('button', { name: 'Scale', exact: true }).click();
  const newMachines = dialog.getByRole('table', { name: 'New machines' });
  await expect(newMachines).toContainText(`${POOL}-`);
  const machine = /dev-west-full-[a-z0-9-]+/.exec((await newMachines.textContent()) ?? '')?.[0];
  expect(machine, 'the new machine’s name').toBeTruthy();
  await expect(dialog.getByRole('status')).toContainText(
    'Done: every new machine (1) is Running and its node Ready.',
    { timeout: 120_000 },
  );
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  // The pool's timeline: who scaled it, from and to, and what the new machine went through.
  await page.goto(poolPage);
  const timeline = timelineOf(page, 'Timeline');
  const record = `${OPERATOR} scaled ${POOL} ${String(from)} → ${String(to)} (O-SCALE-UP)`;
  // The preview is recorded too: one row each, told apart by the result.
  const applied = timeline
    .getByRole('row')
    .filter({ hasText: record })
    .filter({ hasText: 'Applied' });
  await expect(applied).toHaveCount(1);
  await expect(
    timeline.getByRole('row').filter({ hasText: record }).filter({ hasText: 'Preview' }),
  ).toHaveCount(1);
  // Created (Pending), then Running: each a line of its own, from the Machine's own fields.
  for (const phase of ['Pending', 'Running'])
    await expect(
      timeline.getByRole('row').filter({
        hasText: new RegExp(`\\d+ machines? ${phase}: .*${machine ?? ''}`),
      }),
      `${machine ?? ''} ${phase}`,
    ).toHaveCount(1, { timeout: 30_000 });
  await snap(page, testInfo, 'timeline-scale');

  // Filtered by user: only the console's records (Events and machines have no user).
  await pick(page, 'User', OPERATOR);
  await expect(applied).toHaveCount(1);
  await expect(timeline.getByRole('row').filter({ hasText: /\bmachines? Running\b/ })).toHaveCount(
    0,
  );
  await expect(timeline.getByRole('cell', { name: 'Event', exact: true })).toHaveCount(0);
  // By operation, every user: the scale only.
  await pick(page, 'User', 'Any');
  await pick(page, 'Operation', 'O-SCALE-UP');
  await expect(applied).toHaveCount(1);
  await expect(timeline.getByRole('cell', { name: 'Machines', exact: true })).toHaveCount(0);
  await snap(page, testInfo, 'timeline-filtered');

  // A viewer, who may change nothing, reads the same record and transitions.
  await signIn('viewer');
  await page.goto(poolPage);
  await expect(applied).toHaveCount(1);
  await expect(
    timeline
      .getByRole('row')
      .filter({ hasText: new RegExp(`machines? Running: .*${machine ?? ''}`) }),
  ).toHaveCount(1);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('O-SCALE-DOWN-RANDOM on the timeline in Chinese: the record, the machines’ phases, filtered by operation', async ({
    page,
    signIn,
  }, testInfo) => {
    test.setTimeout(180_000);
    await signIn('operator');
    await page.goto(`/clusters/${NS}/dev-west/node-pools`);
    const card = page.getByRole('article', { name: POOL, exact: true });
    await card.getByRole('button', { name: '扩缩容', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `扩缩容 ${POOL}` });
    const from = Number(await dialog.getByLabel('副本数').inputValue());
    const to = from - 1;
    await dialog.getByRole('button', { name: '减少一个副本' }).click();
    await expect(dialog.getByLabel('副本数')).toHaveValue(String(to));
    await dialog.getByRole('button', { name: '预览计划' }).click();
    await expect(dialog.getByRole('region', { name: '计划' })).toContainText('O-SCALE-DOWN');
    await dialog.getByRole('button', { name: '扩缩容', exact: true }).click();
    await expect(dialog).toBeHidden();

    await page.goto(poolPage);
    const timeline = timelineOf(page, '时间线');
    const record = `${OPERATOR} 将 ${POOL} 从 ${String(from)} 扩缩容到 ${String(to)}（O-SCALE-DOWN-RANDOM）`;
    const applied = timeline
      .getByRole('row')
      .filter({ hasText: record })
      .filter({ hasText: '已应用' });
    await expect(applied).toHaveCount(1);
    // The machines' transitions, in Chinese: "n 个 Machine 进入 Running：…".
    await expect(
      timeline.getByRole('row').filter({ hasText: /\d+ 个 Machine 进入 Running：dev-west-full-/ }),
    ).not.toHaveCount(0);
    await snap(page, testInfo, 'timeline-zh');

    await pick(page, '操作', 'O-SCALE-DOWN-RANDOM');
    await expect(applied).toHaveCount(1);
    await expect(timeline.getByRole('row').filter({ hasText: /O-SCALE-UP/ })).toHaveCount(0);
    await expect(timeline.getByRole('row').filter({ hasText: /个 Machine/ })).toHaveCount(0);
  });
});
