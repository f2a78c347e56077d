import type { Locator, Page } from '@playwright/test';
import { NS, expect, snap, test } from '../fixtures';

// Issue 12, "Conditions and rollouts, complete": while a rolling update runs, the pool's card shows
// the old and new MachineSets (wanted, existing, ready, template), each linking to its machines, and
// keeps the progress bar until the last replacement is available. prod-east-batch: 4 replicas,
// maxSurge 1, maxUnavailable 1 (rollout-settings.spec may have changed them: nothing here relies
// on the numbers). The rollout is started here: O-UPGRADE-INFRA with one CPU more.

const POOL = 'prod-east-batch';

interface Words {
  upgrade: string;
  dialog: RegExp;
  cpu: RegExp;
  templateName: RegExp;
  preview: string;
  plan: string;
  sets: string;
  newSet: string;
  oldSet: string;
  machinesOf: (set: string) => string;
  nodesHeading: string;
  machinesTable: string;
  replicas: string;
  ready: string;
  updated: string;
}

const EN: Words = {
  upgrade: 'Upgrade',
  dialog: new RegExp(`^Upgrade ${POOL}`),
  cpu: /^CPU \(cores\)/,
  templateName: /^New machine template name/,
  preview: 'Preview plan',
  plan: 'Plan',
  sets: 'MachineSets of this rollout',
  newSet: 'New',
  oldSet: 'Old',
  machinesOf: (set) => `Machines of ${set}`,
  nodesHeading: 'Nodes',
  machinesTable: 'Machines of prod-east',
  replicas: 'Replicas',
  ready: 'Ready',
  updated: 'Updated',
};

const ZH: Words = {
  upgrade: '升级',
  dialog: new RegExp(`^升级 ${POOL}`),
  cpu: /^CPU（核）/,
  templateName: /^新 machine 模板名称/,
  preview: '预览计划',
  plan: '计划',
  sets: '本次滚动更新的 MachineSet',
  newSet: '新',
  oldSet: '旧',
  machinesOf: (set) => `${set} 的机器`,
  nodesHeading: '节点',
  machinesTable: 'prod-east 的 machine',
  replicas: '副本数',
  ready: '就绪',
  updated: '已更新',
};

/** The number above a label of the card's replica counts (as NodePoolsPage.replicas, any language). */
const count = (card: Locator, label: string): Locator =>
  card
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=preceding-sibling::dd[1]');

/** Starts O-UPGRADE-INFRA (one CPU more) on the pool; returns the new template's name. */
async function startRollout(page: Page, card: Locator, w: Words): Promise<string> {
  // The demo seed upgrades this pool to v1.34.1 once it is available: a rollout of its own, which
  // would change the pool under a dialog opened before it (the form's template, the
  // resourceVersion). Start from the settled pool, as an operator would.
  await expect(card).toContainText(`${POOL}-v1-34-1`, { timeout: 120_000 });
  await expect(card.getByRole('list', { name: w.sets })).toBeHidden({ timeout: 240_000 });
  await card.getByRole('button', { name: w.upgrade, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: w.dialog });
  const cpu = dialog.getByLabel(w.cpu);
  await expect(cpu).not.toHaveValue('');
  await cpu.fill(String(Number(await cpu.inputValue()) + 1));
  const template = await dialog.getByLabel(w.templateName).inputValue();
  expect(template).not.toBe('');
  await dialog.getByRole('button', { name: w.preview }).click();
  await expect(dialog.getByRole('region', { name: w.plan })).toContainText('O-UPGRADE-INFRA');
  await dialog.getByRole('button', { name: w.upgrade, exact: true }).click();
  await expect(dialog).toBeHidden();
  return template;
}

/** The rollout's MachineSets on the card: the new one first, with its template, then the old ones. */
async function expectBothSets(card: Locator, w: Words, template: string): Promise<Locator> {
  const sets = card.getByRole('list', { name: w.sets });
  await expect(sets).toBeVisible({ timeout: 30_000 });
  const items = sets.getByRole('listitem');
  const fresh = items.filter({ hasText: template });
  await expect(fresh).toHaveCount(1);
  await expect(fresh).toContainText(new RegExp(`^${w.newSet}`));
  await expect(items.filter({ hasText: new RegExp(`^${w.oldSet}`) }).first()).toBeVisible();
  await expect(card.getByRole('progressbar')).toBeVisible();
  return fresh;
}

/** Follows a set's link to the Nodes tab, filtered to that set: every row is one of its machines. */
async function followSet(page: Page, item: Locator, w: Words): Promise<void> {
  const link = item.getByRole('link');
  const set = (await link.textContent()) ?? '';
  expect(set).toMatch(new RegExp(`^${POOL}-`));
  await expect(link).toHaveAccessibleName(w.machinesOf(set));
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/clusters/${NS}/prod-east/nodes\\?set=${set}$`));
  await expect(page.getByRole('heading', { name: w.nodesHeading, level: 2 })).toBeVisible();
  await expect(page.getByText(`MachineSet ${set}`, { exact: true })).toBeVisible();
  const rows = page.getByRole('table', { name: w.machinesTable }).getByRole('row');
  // The new set has at least its first replacement (the surge) by now; every row is the set's.
  await expect(rows.filter({ hasText: `${set}-` }).first()).toBeVisible({ timeout: 60_000 });
  const texts = await rows.allInnerTexts();
  const machines = texts.slice(1).filter((t) => t.trim() !== '');
  expect(machines.length).toBeGreaterThan(0);
  for (const row of machines) expect(row).toContain(set);
}

test('a rolling update shows its old and new MachineSets, keeps the bar until the last replacement is Ready, and links to each set’s machines', async ({
  page,
  signIn,
  nodePools,
}, testInfo) => {
  test.setTimeout(300_000);
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  const card = pools.card(POOL);
  const template = await startRollout(page, card, EN);
  const fresh = await expectBothSets(card, EN, template);
  await expect(fresh).toContainText(`template ${template}`);
  // Followed at once: at the simulator's time scale the rollout may end within a minute.
  await followSet(page, fresh, EN);
  await snap(page, testInfo, 'rollout-set-machines');

  // Back on the card, the bar stays until every machine is of the new template and Ready: when it
  // goes, Updated and Ready are both the pool's replicas.
  await pools.goto();
  const sets = card.getByRole('list', { name: EN.sets });
  await expect(sets).toBeHidden({ timeout: 240_000 });
  const replicas = await count(card, EN.replicas).textContent();
  expect(await count(card, EN.updated).textContent()).toBe(replicas);
  expect(await count(card, EN.ready).textContent()).toBe(replicas);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('滚动更新：新旧 MachineSet、进度条和机器链接', async ({ page, signIn }, testInfo) => {
    test.setTimeout(300_000);
    await signIn('operator');
    await page.goto(`/clusters/${NS}/prod-east/node-pools`);
    const card = page.getByRole('article', { name: POOL, exact: true });
    await expect(card).toBeVisible();
    const template = await startRollout(page, card, ZH);
    const fresh = await expectBothSets(card, ZH, template);
    await expect(fresh).toContainText(`模板 ${template}`);
    // Each set links to its machines; the new one is followed (the old ones empty as it goes).
    const old = card
      .getByRole('list', { name: ZH.sets })
      .getByRole('listitem')
      .filter({ hasText: new RegExp(`^${ZH.oldSet}`) })
      .first()
      .getByRole('link');
    await expect(old).toHaveAttribute('href', /\/nodes\?set=prod-east-batch-/);
    await followSet(page, fresh, ZH);
    await snap(page, testInfo, 'rollout-set-machines-zh');
  });
});
