import { expect, expectChinese, getJson, kubectl, snap, test } from '../fixtures';

// O-MHC-CREATE / O-MHC-EDIT / O-MHC-DELETE (issue 26 item 1): a worker pool's MachineHealthCheck,
// created from its card through a previewed plan, read back with kubectl; a machine made
// unhealthy by the simulator's `node-unhealthy` failure (annotation `sim.dcs.io/fail` on the
// Machine: its Node's Ready goes False) is marked by the health check, deleted by its MachineSet
// and replaced, as the dialog's report shows; the health check removed; a viewer's button
// disabled with the reason; in Chinese.
//
// Its own stack (`stackName`): a machine replaced would change every other journey's pool.
test.use({ stackName: 'health-check' });

const POOL = 'prod-east-data';
const MHC = `${POOL}-mhc`;

interface Mhc {
  spec: {
    selector: { matchLabels: Record<string, string> };
    unhealthyConditions?: { type: string; status: string; timeout: string }[];
    unhealthyNodeConditions?: unknown;
  };
}

const machinesOf = async (kubeconfig: string) =>
  (
    await kubectl(
      kubeconfig,
      'get',
      'machines',
      '-l',
      `cluster.x-k8s.io/deployment-name=${POOL}`,
      '-o',
      'jsonpath={.items[*].metadata.name}',
    )
  )
    .split(/\s+/)
    .filter(Boolean);

test('O-MHC-CREATE from the card, read back with kubectl; node-unhealthy on a machine: marked, deleted by its MachineSet and replaced; O-MHC-DELETE', async ({
  page,
  signIn,
  nodePools,
  stack,
}, testInfo) => {
  test.setTimeout(240_000);
  await signIn('operator');
  const pools = nodePools('prod-east');
  await pools.goto();
  const card = pools.card(POOL);
  await expect(pools.replicas(card, 'Ready')).toHaveText('3');
  const line = card.locator('[data-fact="health-check"]');
  await expect(line).toHaveText('None');

  await card.getByRole('button', { name: 'Health check', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Health check of ${POOL}` });
  await expect(dialog).toContainText('No health check selects the machines of this pool');
  const timeouts = dialog.getByRole('spinbutton', { name: /^For \(seconds\)/ });
  await expect(timeouts).toHaveCount(2);
  // R-MHC-3 as typed.
  const startup = dialog.getByRole('spinbutton', { name: /^Node start-up timeout/ });
  await startup.fill('10');
  await expect(dialog).toContainText('Cluster API requires at least 30 seconds');
  await startup.fill('600');
  await timeouts.nth(0).fill('60');
  await timeouts.nth(1).fill('60');
  await snap(page, testInfo, 'health-check-dialog');
  await dialog.getByRole('button', { name: 'Preview plan' }).click();
  const plan = dialog.getByRole('region', { name: 'Plan' });
  await expect(plan).toContainText(`Create MachineHealthCheck ${MHC} for the machines of ${POOL}`);
  await expect(plan).toContainText('O-MHC-CREATE');
  await snap(page, testInfo, 'health-check-plan');
  await dialog.getByRole('button', { name: 'Create health check', exact: true }).click();
  await expect(dialog).toBeHidden();

  const mhc = await getJson<Mhc>(stack.kubeconfig, 'machinehealthchecks', MHC);
  expect(mhc.spec.selector.matchLabels).toMatchObject({
    'cluster.x-k8s.io/deployment-name': POOL,
  });

  // node-unhealthy on one machine: its MachineSet deletes it once the health check marks it.
  const before = await machinesOf(stack.kubeconfig);
  expect(before).toHaveLength(3);
  const victim = before[0] ?? '';
  await kubectl(stack.kubeconfig, 'annotate', 'machine', victim, 'sim.dcs.io/fail=node-unhealthy');
  await card.getByRole('button', { name: 'Health check', exact: true }).click();
  await expect
    .poll(async () => (await machinesOf(stack.kubeconfig)).includes(victim), { timeout: 120_000 })
    .toBe(false);
  // Marked by the health check (the event outlives the machine), then replaced by its MachineSet.
  await expect
    .poll(async () =>
      kubectl(
        stack.kubeconfig,
        'get',
        'events',
        '--field-selector',
        `involvedObject.kind=Machine,involvedObject.name=${victim}`,
        '-o',
        'jsonpath={.items[*].reason}',
      ).catch(() => ''),
    )
    .toContain('MachineMarkedUnhealthy');
  await expect.poll(async () => machinesOf(stack.kubeconfig), { timeout: 120_000 }).toHaveLength(3);
  const after = await machinesOf(stack.kubeconfig);
  const replacement = after.find((m) => !before.includes(m)) ?? '';
  expect(replacement).not.toBe('');
  // The report names the replacement (so it is not one read before the remediation), and counts
  // three healthy only once its Node is Ready (upstream's counting: a machine without a Node, or
  // with one NotReady inside its timeout, is not healthy).
  const report = dialog.getByRole('region', { name: 'Status' });
  await expect(report.getByText(replacement, { exact: true })).toBeVisible({ timeout: 120_000 });
  await expect(report.getByText(victim, { exact: true })).toHaveCount(0);
  await expect(dialog.getByRole('status')).toHaveText('3 of 3 healthy · remediations allowed: 3', {
    timeout: 120_000,
  });
  await snap(page, testInfo, 'health-check-remediated');
  // The card's line follows the health check live (the stream, not the dialog's polling).
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(line).toHaveText(`${MHC}: 3 of 3 healthy`);
  await card.getByRole('button', { name: 'Health check', exact: true }).click();

  // O-MHC-DELETE.
  await dialog.getByRole('button', { name: 'Remove the health check' }).click();
  await expect(plan).toContainText(`Delete MachineHealthCheck ${MHC} of ${POOL}`);
  await dialog.getByRole('button', { name: 'Remove health check', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect
    .poll(async () =>
      kubectl(stack.kubeconfig, 'get', 'machinehealthchecks', '-o', 'name').catch(() => ''),
    )
    .not.toContain(MHC);
  await expect(line).toHaveText('None');
});

test('O-MHC-* for a viewer: the card’s Health check is there, disabled, and says which access review refused it', async ({
  signIn,
  nodePools,
}) => {
  await signIn('viewer');
  const pools = nodePools('prod-east');
  await pools.goto();
  const button = pools.card(POOL).getByRole('button', { name: 'Health check', exact: true });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(/machinehealthchecks/i);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('健康检查：对话框与计划为中文', async ({ page, signIn, nodePools }, testInfo) => {
    await signIn('operator');
    const pools = nodePools('prod-east');
    await pools.goto();
    const card = pools.card('prod-east-legacy');
    await card.getByRole('button', { name: '健康检查', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'prod-east-legacy 的健康检查' });
    await expect(dialog).toContainText('不健康节点条件');
    await expectChinese(page, 'the health-check dialog');
    await dialog.getByRole('button', { name: '预览计划' }).click();
    await expect(dialog.getByRole('region', { name: '计划' })).toContainText(
      '为 prod-east-legacy 的 machine 创建 MachineHealthCheck prod-east-legacy-mhc',
    );
    await snap(page, testInfo, 'health-check-dialog-zh');
  });
});
