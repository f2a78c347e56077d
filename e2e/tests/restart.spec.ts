import type { Locator, Page } from '@playwright/test';
import { expect, expectChinese, getJson, kubectl, snap, test } from '../fixtures';

// O-RESTART (issue 26 item 4): a rollout restart through rolloutAfter. An operator restarts a
// worker pool from its card's menu: the plan names the machines it replaces and their order under
// the pool's maxSurge/maxUnavailable, the server's dry run accepts it, Apply writes the time from
// the console server's clock; the card shows the rollout (old and new MachineSets of one
// template) until every machine is new, as kubectl confirms. The control plane's restart is
// previewed (one at a time, the oldest first) and scheduled for later, which its card then says.
// A viewer's item is inert with the refused access review. In Chinese too.
//
// Its own stack (`stackName`): a restart replaces every machine of prod-east-legacy and schedules
// one of prod-east's control plane, which other journeys on a shared stack would see.
test.use({ stackName: 'restart' });

const POOL = 'prod-east-legacy';

interface MachineList {
  items: { metadata: { name: string; creationTimestamp: string; deletionTimestamp?: string } }[];
}
interface WithRollout {
  spec: { rolloutAfter?: string; rollout?: { after?: string } };
}

/** The pool's machines (only those not being deleted, unless `deleting`), by kubectl. */
async function liveMachines(
  kubeconfig: string,
  selector: string,
  deleting = false,
): Promise<string[]> {
  const list = JSON.parse(
    await kubectl(kubeconfig, 'get', 'machines', '-l', selector, '-o', 'json'),
  ) as MachineList;
  return list.items
    .filter((m) => deleting || !m.metadata.deletionTimestamp)
    .map((m) => m.metadata.name)
    .sort();
}

/** rolloutAfter as the cluster serves it: v1beta2's spec.rollout.after, v1beta1's spec.rolloutAfter. */
const rolloutAfterOf = (o: WithRollout) => o.spec.rollout?.after ?? o.spec.rolloutAfter;

async function openRestart(page: Page, card: Locator, menu: RegExp, item: string, title: string) {
  await card.getByRole('button', { name: menu }).click();
  await page.getByRole('menuitem', { name: item }).click();
  return page.getByRole('dialog', { name: title });
}

test('O-RESTART of a worker pool: the plan names the machines and their order, Apply writes rolloutAfter, the card follows the rollout until every machine is new', async ({
  page,
  signIn,
  nodePools,
  stack,
}, testInfo) => {
  test.setTimeout(300_000);
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  const card = pools.card(POOL);
  await expect(pools.replicas(card, 'Ready')).toHaveText('3', { timeout: 60_000 });
  const selector = `cluster.x-k8s.io/deployment-name=${POOL}`;
  const before = await liveMachines(stack.kubeconfig, selector);
  expect(before).toHaveLength(3);

  const dialog = await openRestart(
    page,
    card,
    /^More actions for /,
    'Restart machines',
    `Restart the machines of ${POOL}`,
  );
  await expect(dialog).toContainText(
    `Cluster API replaces each of the 3 machines of ${POOL} with a new one, under its rollout settings (maxSurge 1, maxUnavailable 0)`,
  );
  await expect(dialog.getByRole('radio', { name: 'Now' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Preview plan' }).click();
  const plan = dialog.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText(`Restart MachineDeployment ${POOL}: set its rolloutAfter to`);
  await expect(plan).toContainText('O-RESTART');
  await expect(plan).toContainText('The API server accepted every step in a dry run');
  await expect(plan).toContainText('the console server’s clock, not your browser’s');
  // maxSurge 1 / maxUnavailable 0: a new machine first, then an old one once it is available.
  const order = plan.getByRole('list', { name: 'The 3 machines replaced, in order' });
  const steps = await order.getByRole('listitem').allInnerTexts();
  expect(steps).toEqual([
    'Create 1 new machine',
    `Drain and delete ${before[0] ?? ''}`,
    'Create 1 new machine',
    `Drain and delete ${before[1] ?? ''}`,
    'Create 1 new machine',
    `Drain and delete ${before[2] ?? ''}`,
  ]);
  await snap(page, testInfo, 'restart-pool-plan');
  const started = Date.now();
  await dialog.getByRole('button', { name: 'Restart', exact: true }).click();
  await expect(dialog).toBeHidden();

  // Written from the console server's clock, at Apply (this test runs on the same machine).
  const md = await getJson<WithRollout>(stack.kubeconfig, 'machinedeployments', POOL);
  const written = Date.parse(rolloutAfterOf(md) ?? '');
  expect(written).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000 - 1000);
  expect(written).toBeLessThanOrEqual(Date.now());

  // The card shows the rollout: a new MachineSet of the same template beside the old one.
  const sets = card.getByRole('list', { name: 'MachineSets of this rollout' });
  await expect(sets).toBeVisible({ timeout: 60_000 });
  await expect(sets.getByRole('listitem').filter({ hasText: /^New/ })).toHaveCount(1);
  await expect(sets.getByRole('listitem').filter({ hasText: /^Old/ }).first()).toBeVisible();
  await expect(card.getByRole('progressbar')).toBeVisible();
  await snap(page, testInfo, 'restart-pool-rolling');

  // It completes: the bar goes, every machine is new, Updated and Ready are the replicas.
  await expect(sets).toBeHidden({ timeout: 240_000 });
  await expect(pools.replicas(card, 'Updated')).toHaveText('3');
  await expect(pools.replicas(card, 'Ready')).toHaveText('3');
  await expect
    .poll(async () => liveMachines(stack.kubeconfig, selector), { timeout: 60_000 })
    .toHaveLength(3);
  const after = await liveMachines(stack.kubeconfig, selector);
  expect(after.filter((n) => before.includes(n))).toEqual([]);
  await snap(page, testInfo, 'restart-pool-done');

  // Done: a second restart is offered again once nothing is changing, the last old machine's
  // deletion (its drain, its VM) over too: R-RESTART-2 refuses while a machine is being deleted.
  await expect
    .poll(async () => liveMachines(stack.kubeconfig, selector, true), { timeout: 120_000 })
    .toEqual(after);
  const again = await openRestart(
    page,
    card,
    /^More actions for /,
    'Restart machines',
    `Restart the machines of ${POOL}`,
  );
  await again.getByRole('button', { name: 'Preview plan' }).click();
  await expect(again.getByRole('region', { name: 'Plan' })).toContainText('O-RESTART');
  await again.getByRole('button', { name: 'Cancel' }).click();
});

test('O-RESTART of the control plane: previewed one at a time, the oldest first; scheduled for later, the card says when', async ({
  page,
  signIn,
  nodePools,
  stack,
}, testInfo) => {
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  const card = pools.controlPlane();
  // A control plane still coming up is changing (R-RESTART-2): start from the settled one.
  await expect(pools.replicas(card, 'Ready')).toHaveText('3', { timeout: 120_000 });
  await expect(pools.replicas(card, 'Updated')).toHaveText('3');
  const dialog = await openRestart(
    page,
    card,
    /^More actions for Control plane$/,
    'Restart machines',
    'Restart the control-plane machines of prod-east-control-plane',
  );
  await expect(dialog).toContainText('one at a time, the oldest first');
  await dialog.getByRole('button', { name: 'Preview plan' }).click();
  const plan = dialog.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText('Restart KubeadmControlPlane prod-east-control-plane');
  await expect(plan).toContainText('etcd grows to 4 members');
  const list = JSON.parse(
    await kubectl(
      stack.kubeconfig,
      'get',
      'machines',
      '-l',
      'cluster.x-k8s.io/cluster-name=prod-east,cluster.x-k8s.io/control-plane',
      '-o',
      'json',
    ),
  ) as MachineList;
  const oldest = [...list.items]
    .sort(
      (a, b) =>
        Date.parse(a.metadata.creationTimestamp) - Date.parse(b.metadata.creationTimestamp) ||
        a.metadata.name.localeCompare(b.metadata.name),
    )
    .map((m) => m.metadata.name);
  const steps = await plan
    .getByRole('list', { name: 'The 3 machines replaced, in order' })
    .getByRole('listitem')
    .allInnerTexts();
  expect(steps).toEqual(
    oldest.flatMap((name) => ['Create 1 new machine', `Drain and delete ${name}`]),
  );
  await snap(page, testInfo, 'restart-control-plane-plan');

  // Back, and scheduled for tomorrow instead: nothing rolls now; the card says when.
  await dialog.getByRole('button', { name: 'Back' }).click();
  await dialog.getByRole('radio', { name: 'At a time' }).click();
  const tomorrow = new Date(Date.now() + 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = `${String(tomorrow.getFullYear())}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T${pad(tomorrow.getHours())}:${pad(tomorrow.getMinutes())}`;
  await dialog.getByLabel(/^Time \(/).fill(local);
  await expect(dialog).toContainText(/Sent as \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z/);
  await dialog.getByRole('button', { name: 'Preview plan' }).click();
  await expect(plan).toContainText(
    'Schedule a restart of KubeadmControlPlane prod-east-control-plane',
  );
  await expect(plan).toContainText('Nothing happens until');
  await dialog.getByRole('button', { name: 'Schedule restart', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('Restart scheduled')).toBeVisible();
  const kcp = await getJson<WithRollout>(
    stack.kubeconfig,
    'kubeadmcontrolplanes',
    'prod-east-control-plane',
  );
  expect(Date.parse(rolloutAfterOf(kcp) ?? '')).toBe(
    Math.floor(new Date(local).getTime() / 1000) * 1000,
  );
  await snap(page, testInfo, 'restart-control-plane-scheduled');
});

test('O-RESTART for a viewer: the menu item is there, inert, and says which access review refused it', async ({
  page,
  signIn,
  nodePools,
}) => {
  await signIn('viewer');
  const pools = nodePools('prod-east');
  await pools.goto();
  await pools
    .card(POOL)
    .getByRole('button', { name: /^More actions for / })
    .click();
  const item = page.getByRole('menuitem', { name: /Restart machines/ });
  await expect(item).toHaveAttribute('aria-disabled', 'true');
  await expect(item).toContainText(/patch\b.*machinedeployments/i);
  await item.click({ force: true });
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('O-RESTART：预览重启节点池的 machine，计划按顺序列出被替换的 machine', async ({
    page,
    signIn,
    nodePools,
  }, testInfo) => {
    await signIn('operator');
    const pools = nodePools('prod-east');
    await pools.goto();
    const card = pools.card('prod-east-data');
    await expect(card.getByRole('term').filter({ hasText: /^就绪$/ })).toBeVisible();
    const dialog = await openRestart(
      page,
      card,
      /^prod-east-data 的更多操作$/,
      '重启 machine',
      '重启 prod-east-data 的 machine',
    );
    await expect(dialog.getByRole('radio', { name: '立即' })).toBeChecked();
    await expectChinese(page, 'the restart dialog');
    await dialog.getByRole('button', { name: '预览计划' }).click();
    const plan = dialog.getByRole('region', { name: '计划' });
    await expect(plan).toContainText(
      '重启 MachineDeployment prod-east-data：将其 rolloutAfter 设为',
    );
    // maxSurge 0 / maxUnavailable 1: an old machine goes first, then its replacement comes.
    const steps = await plan
      .getByRole('list', { name: '被替换的 3 台 machine（按顺序）' })
      .getByRole('listitem')
      .allInnerTexts();
    expect(steps).toHaveLength(6);
    expect(steps[0]).toMatch(/^驱逐并删除 prod-east-data-/);
    expect(steps[1]).toBe('创建 1 台新 machine');
    await expectChinese(page, 'the restart plan');
    await snap(page, testInfo, 'restart-pool-plan-zh');
    await dialog.getByRole('button', { name: '取消' }).click();
    await expect(dialog).toBeHidden();
  });
});
