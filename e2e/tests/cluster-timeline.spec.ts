import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { NS, expect, snap, test, workloadKubeconfig } from '../fixtures';

/**
 * Issue 12: the cluster's timeline (below its Node Pools tab) merges every pool's records with
 * the controllers' Events and the machines' phase transitions; it filters by user, operation and
 * time; a viewer reads the same; "Export cluster diagnostics" carries it with the node states and
 * nothing of any Secret. prod-east, through previews only (a preview is recorded too, as
 * `dry-run`): nothing changes that other journeys would see.
 */

const CLUSTER = 'prod-east';
const CLUSTER_PAGE = `/clusters/${NS}/${CLUSTER}/node-pools`;
/** The simulator's users, as the API server's TokenReview names them (packages/simulator). */
const OPERATOR = 'sim-operator';

/** Picks an option of one of the timeline's filters (MUI Select: a combobox and a listbox). */
async function pick(page: Page, filter: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: filter }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(page.getByRole('listbox')).toBeHidden();
}

const rowsWith = (timeline: Locator, ...texts: (string | RegExp)[]): Locator =>
  texts.reduce((rows, text) => rows.filter({ hasText: text }), timeline.getByRole('row'));

interface Bundle {
  timeline: {
    entries: {
      source: string;
      operation?: string;
      result?: string;
      object?: string;
      text: string;
    }[];
  };
  nodes: { status: string; nodes?: { name: string; state: string }[] };
}

test('the cluster’s timeline merges two pools’ previews with the machines’ transitions, filters them, exports them with the node states and no Secret, and a viewer reads it', async ({
  page,
  signIn,
  nodePools,
  stack,
}, testInfo) => {
  test.setTimeout(180_000);
  await signIn('operator');
  const pools = nodePools(CLUSTER);
  await pools.goto();

  // Pool 1: a scale previewed (O-SCALE-DOWN-RANDOM), not applied.
  await pools.card('prod-east-data').getByRole('button', { name: 'Scale', exact: true }).click();
  const scale = page.getByRole('dialog', { name: 'Scale prod-east-data' });
  await scale.getByRole('button', { name: 'One replica fewer' }).click();
  const to = Number(await scale.getByLabel('Replicas').inputValue());
  await scale.getByRole('button', { name: 'Preview plan' }).click();
  await expect(scale.getByRole('region', { name: 'Plan' })).toContainText('O-SCALE-DOWN');
  await scale.getByRole('button', { name: 'Cancel' }).click();
  await expect(scale).toBeHidden();

  // Pool 2: its rollout settings previewed (O-EDIT-STRATEGY), not saved.
  await pools.card('prod-east-legacy').getByRole('button', { name: 'Rollout settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Rollout settings of prod-east-legacy' });
  await settings.getByRole('textbox', { name: 'Node drain timeout' }).fill('7m');
  await settings.getByRole('button', { name: 'Preview plan' }).click();
  await expect(settings.getByRole('region', { name: 'Plan' })).toContainText('nodeDrainTimeout');
  await settings.getByRole('button', { name: 'Cancel' }).click();
  await expect(settings).toBeHidden();

  // The cluster's timeline: both pools' records, each a preview, beside the machines' phases.
  const timeline = page.getByRole('table', { name: 'Timeline' });
  const scaled = rowsWith(
    timeline,
    `${OPERATOR} scaled prod-east-data ${String(to + 1)} → ${String(to)} (O-SCALE-DOWN-RANDOM)`,
    'Preview',
  );
  const edited = rowsWith(
    timeline,
    new RegExp(`${OPERATOR} ran O-EDIT-STRATEGY on \\S*prod-east-legacy`),
    'Preview',
  );
  await expect(scaled.first()).toBeVisible({ timeout: 30_000 });
  await expect(edited.first()).toBeVisible();
  await expect(rowsWith(timeline, /\d+ machines? Running: /).first()).toBeVisible();
  await snap(page, testInfo, 'cluster-timeline');

  // By operation: the rollout settings only.
  await pick(page, 'Operation', 'O-EDIT-STRATEGY');
  await expect(edited.first()).toBeVisible();
  await expect(rowsWith(timeline, 'O-SCALE-')).toHaveCount(0);
  await expect(rowsWith(timeline, /machines? Running/)).toHaveCount(0);
  // By user, any operation: the console's records of both pools, no machines' or Events' rows.
  await pick(page, 'Operation', 'Any');
  await pick(page, 'User', OPERATOR);
  await expect(scaled.first()).toBeVisible();
  await expect(edited.first()).toBeVisible();
  await expect(timeline.getByRole('cell', { name: 'Machines', exact: true })).toHaveCount(0);
  await expect(timeline.getByRole('cell', { name: 'Event', exact: true })).toHaveCount(0);
  // By time: the last hour keeps what was just recorded.
  await pick(page, 'Time', 'Last hour');
  await expect(scaled.first()).toBeVisible();
  await expect(edited.first()).toBeVisible();
  await snap(page, testInfo, 'cluster-timeline-filtered');

  // Export cluster diagnostics: the timeline and the node states, and nothing of the workload
  // cluster's kubeconfig Secret (its value, its keys) or of any last-applied copy.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export cluster diagnostics' }).click(),
  ]);
  const text = await readFile(await download.path(), 'utf8');
  const bundle = JSON.parse(text) as Bundle;
  const console = bundle.timeline.entries.filter((e) => e.source === 'console');
  expect(console).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ operation: 'O-SCALE-DOWN-RANDOM', result: 'dry-run' }),
      expect.objectContaining({ operation: 'O-EDIT-STRATEGY', result: 'dry-run' }),
    ]),
  );
  expect(bundle.timeline.entries.some((e) => e.source === 'machine')).toBe(true);
  expect(bundle.nodes.status).toBe('ok');
  expect(bundle.nodes.nodes?.length).toBeGreaterThan(0);
  const kubeconfig = await workloadKubeconfig(stack.kubeconfig, CLUSTER);
  expect(kubeconfig).not.toBe('');
  const server = /server:\s*(\S+)/.exec(kubeconfig)?.[1] ?? '';
  expect(server).not.toBe('');
  // The Secret's value as stored (base64), and what it decodes to.
  expect(text).not.toContain(Buffer.from(kubeconfig).toString('base64'));
  expect(text).not.toContain(server);
  for (const key of ['client-key-data', 'certificate-authority-data', 'last-applied-configuration'])
    expect(text).not.toContain(key);

  // A viewer, who may change nothing, reads the same records on the cluster's timeline.
  await signIn('viewer');
  await page.goto(CLUSTER_PAGE);
  await expect(scaled.first()).toBeVisible({ timeout: 30_000 });
  await expect(edited.first()).toBeVisible();
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('集群时间线：合并各节点池的记录，按操作和时间筛选；查看者也能看到', async ({
    page,
    signIn,
  }, testInfo) => {
    test.setTimeout(150_000);
    await signIn('operator');
    await page.goto(CLUSTER_PAGE);
    const card = page.getByRole('article', { name: 'prod-east-legacy', exact: true });
    await card.getByRole('button', { name: '扩缩容', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '扩缩容 prod-east-legacy' });
    const from = Number(await dialog.getByLabel('副本数').inputValue());
    await dialog.getByRole('button', { name: '减少一个副本' }).click();
    await dialog.getByRole('button', { name: '预览计划' }).click();
    await expect(dialog.getByRole('region', { name: '计划' })).toContainText('O-SCALE-DOWN');
    await dialog.getByRole('button', { name: '取消' }).click();
    await expect(dialog).toBeHidden();

    const timeline = page.getByRole('table', { name: '时间线' });
    const record = rowsWith(
      timeline,
      `${OPERATOR} 将 prod-east-legacy 从 ${String(from)} 扩缩容到 ${String(from - 1)}（O-SCALE-DOWN-RANDOM）`,
      '预览',
    );
    await expect(record.first()).toBeVisible({ timeout: 30_000 });
    // Other pools' machines on the same timeline, in Chinese.
    await expect(
      rowsWith(timeline, /\d+ 个 Machine 进入 Running：prod-east-/).first(),
    ).toBeVisible();
    await snap(page, testInfo, 'cluster-timeline-zh');

    await pick(page, '操作', 'O-SCALE-DOWN-RANDOM');
    await pick(page, '时间范围', '最近 1 小时');
    await expect(record.first()).toBeVisible();
    await expect(rowsWith(timeline, /个 Machine/)).toHaveCount(0);

    await signIn('viewer');
    await page.goto(CLUSTER_PAGE);
    await expect(record.first()).toBeVisible({ timeout: 30_000 });
  });
});
