import type { Page, TestInfo } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { NS, expect, expectChinese, kubectl, snap, test, workloadKubeconfig } from '../fixtures';

/**
 * Issue 26 item 6: drain visibility, end to end. A machine of dev-west-full is deleted while a
 * PodDisruptionBudget holds its drain (the simulator's failure mode `drain-stuck`, annotation
 * `sim.dcs.io/fail` on the Machine) and the pool has no nodeDrainTimeout (Cluster API's default:
 * the drain waits forever). Its page shows the step Draining node, the refused eviction with the
 * budget's name, the drain time and that it waits forever; the pool's card and the Nodes row say
 * the drain is blocked by that budget. The operator then sets a short nodeDrainTimeout on the pool
 * from the page (the rollout settings, previewed and saved): Cluster API gives up the drain and
 * the machine goes. In Chinese too; and for a viewer, the edit is off with the reason.
 *
 * Its own stack (`stackName`): the journeys change dev-west-full's timeout and delete machines.
 */

test.use({ stackName: 'drain', timeScale: 4 });

const POOL = 'dev-west-full';
const CLUSTER = 'dev-west';

const TEXTS = {
  en: {
    table: `Machines of ${CLUSTER}`,
    select: (m: string) => `Select ${m}`,
    deleteSelected: /^Delete selected machines/,
    deleteDialog: `Delete 1 machine of ${POOL}`,
    preview: 'Preview plan',
    plan: 'Plan',
    apply: 'Delete selected machines',
    deletion: 'Deletion',
    steps: 'Deletion steps',
    draining: 'Draining node',
    refused: 'Evictions refused',
    pdb: (name: string) => `PodDisruptionBudget ${name} needs`,
    forever: /^Draining for .+\. No nodeDrainTimeout is set: the drain waits forever/,
    actions: 'What you can do',
    edit: 'Edit nodeDrainTimeout',
    strategyDialog: `Rollout settings of ${POOL}`,
    drainField: 'Node drain timeout',
    save: 'Save settings',
    problems: 'Problems',
    blocked: (name: string) => `Drain blocked by PodDisruptionBudget ${name}`,
    notFound: (m: string) => `Machine ${m} does not exist in this cluster.`,
  },
  'zh-CN': {
    table: `${CLUSTER} 的 machine`,
    select: (m: string) => `选择 ${m}`,
    deleteSelected: /^删除所选 machine/,
    deleteDialog: `删除 ${POOL} 的 1 台 machine`,
    preview: '预览计划',
    plan: '计划',
    apply: '删除所选 machine',
    deletion: '删除',
    steps: '删除步骤',
    draining: '正在排空节点',
    refused: '被拒绝的驱逐',
    pdb: (name: string) => `PodDisruptionBudget ${name} 需要`,
    forever: /^已排空 .+。未设置 nodeDrainTimeout：排空将一直等待/,
    actions: '可以采取的操作',
    edit: '编辑 nodeDrainTimeout',
    strategyDialog: `${POOL} 的滚动更新设置`,
    drainField: '节点驱逐超时',
    save: '保存设置',
    problems: '问题',
    blocked: (name: string) => `排空被 PodDisruptionBudget ${name} 阻止`,
    notFound: (m: string) => `此集群中不存在 machine ${m}。`,
  },
} as const;
type Lang = keyof typeof TEXTS;

/**
 * The v1beta1 resources, whose fields these helpers read and write (v1.14 serves v1beta2 first,
 * where the timeout is spec.template.spec.deletion.nodeDrainTimeoutSeconds).
 */
const MD_V1BETA1 = 'machinedeployments.v1beta1.cluster.x-k8s.io';
const MACHINE_V1BETA1 = 'machines.v1beta1.cluster.x-k8s.io';

/** Sets (or, with null, removes: Cluster API's default, no limit) the pool's nodeDrainTimeout. */
async function setPoolDrainTimeout(kubeconfig: string, value: string | null): Promise<void> {
  await kubectl(
    kubeconfig,
    'patch',
    MD_V1BETA1,
    POOL,
    '--type',
    'merge',
    '-p',
    JSON.stringify({ spec: { template: { spec: { nodeDrainTimeout: value } } } }),
  );
}

interface MachineWire {
  metadata: { name: string; deletionTimestamp?: string };
  spec?: { nodeDrainTimeout?: string };
  status?: {
    phase?: string;
    nodeRef?: { name: string };
    v1beta2?: { conditions?: { type: string; reason?: string; message?: string }[] };
    conditions?: { type: string; status?: string; reason?: string; message?: string }[];
  };
}

const machinesOfPool = async (kubeconfig: string): Promise<MachineWire[]> =>
  (
    JSON.parse(
      await kubectl(
        kubeconfig,
        'get',
        MACHINE_V1BETA1,
        '-l',
        `cluster.x-k8s.io/deployment-name=${POOL}`,
        '-o',
        'json',
      ),
    ) as { items: MachineWire[] }
  ).items;

/**
 * A Running machine of the pool whose Node is Ready (NodeHealthy True: its Pods run, so a
 * budget over them holds; a Pod that never started is evicted past any budget, as the Eviction
 * API does for a Pending Pod), once the pool's timeout (`timeout`, undefined for
 * none) has reached it in place, as Cluster API propagates node timeouts to existing machines.
 * The timeout is stored in seconds (v1beta2) and read back as Go writes durations ("10m0s").
 */
async function aRunningMachine(kubeconfig: string, timeout: RegExp | undefined): Promise<string> {
  let name = '';
  await expect
    .poll(
      async () => {
        const ready = (await machinesOfPool(kubeconfig)).filter(
          (m) =>
            !m.metadata.deletionTimestamp &&
            m.status?.phase === 'Running' &&
            m.status.nodeRef !== undefined &&
            m.status.conditions?.some((c) => c.type === 'NodeHealthy' && c.status === 'True') ===
              true &&
            (timeout === undefined
              ? m.spec?.nodeDrainTimeout === undefined
              : timeout.test(m.spec?.nodeDrainTimeout ?? '')),
        );
        name = ready.map((m) => m.metadata.name).sort()[0] ?? '';
        return name;
      },
      {
        timeout: 120_000,
        message: `a Running machine of ${POOL} with nodeDrainTimeout ${timeout?.source ?? 'unset'}`,
      },
    )
    .not.toBe('');
  return name;
}

/**
 * The budget refusing the machine's drain, as Cluster API wrote it into its Deleting condition
 * (what the console must show: read here from the object, not from the screen).
 */
async function refusingBudget(kubeconfig: string, machine: string): Promise<string> {
  let budget = '';
  await expect
    .poll(
      async () => {
        const m = (await machinesOfPool(kubeconfig)).find((x) => x.metadata.name === machine);
        const message =
          m?.status?.v1beta2?.conditions?.find((c) => c.type === 'Deleting')?.message ??
          m?.status?.conditions?.find((c) => c.type === 'DrainingSucceeded')?.message ??
          '';
        budget = /The disruption budget (\S+) needs/.exec(message)?.[1] ?? '';
        return budget;
      },
      { timeout: 60_000, message: `the budget refusing ${machine}'s drain` },
    )
    .not.toBe('');
  return budget;
}

/**
 * Marks the machine `drain-stuck` and waits until the budget the simulator writes for it holds in
 * the workload cluster, as kubectl there reads it: its Node's web replica healthy, no disruption
 * allowed. Only then is the machine deleted, so its drain meets the budget.
 */
async function holdDrain(kubeconfig: string, machine: string, outDir: string): Promise<void> {
  await kubectl(kubeconfig, 'annotate', 'machine', machine, 'sim.dcs.io/fail=drain-stuck');
  const m = (await machinesOfPool(kubeconfig)).find((x) => x.metadata.name === machine);
  const node = m?.status?.nodeRef?.name ?? '';
  mkdirSync(outDir, { recursive: true });
  const workload = `${outDir}/workload.kubeconfig`;
  writeFileSync(workload, await workloadKubeconfig(kubeconfig, CLUSTER));
  await expect
    .poll(
      async () =>
        kubectl(
          workload,
          'get',
          'pdb',
          `drain-stuck-${node}`,
          '-n',
          'default',
          '-o',
          'jsonpath={.status.currentHealthy}/{.status.disruptionsAllowed}',
        ).catch(() => ''),
      { timeout: 60_000, message: `the budget drain-stuck-${node} holds` },
    )
    .toBe('1/0');
}

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await snap(page, testInfo, name);
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

type Args = Parameters<Parameters<typeof test>[2]>[0];

async function journey(
  lang: Lang,
  { page, context, signIn, stack }: Pick<Args, 'page' | 'context' | 'signIn' | 'stack'>,
  testInfo: TestInfo,
): Promise<void> {
  const T = TEXTS[lang];
  const zh = lang === 'zh-CN';
  await signIn('operator');
  // No nodeDrainTimeout: Cluster API's default, the drain waits forever.
  await setPoolDrainTimeout(stack.kubeconfig, null);
  const victim = await aRunningMachine(stack.kubeconfig, undefined);
  // Hold the drain with a PodDisruptionBudget.
  await holdDrain(stack.kubeconfig, victim, testInfo.outputDir);

  // O-SCALE-DOWN-TARGETED of exactly this machine, from the Nodes tab.
  await page.goto(`/clusters/${NS}/${CLUSTER}/nodes`);
  const table = page.getByRole('table', { name: T.table });
  const rowOf = (name: string) =>
    table.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  await expect(rowOf(victim)).toHaveCount(1, { timeout: 60_000 });
  await page.getByRole('checkbox', { name: T.select(victim) }).check();
  await page.getByRole('button', { name: T.deleteSelected }).click();
  const deleteDialog = page.getByRole('dialog', { name: T.deleteDialog });
  await deleteDialog.getByRole('button', { name: T.preview }).click();
  await expect(deleteDialog.getByRole('region', { name: T.plan })).toContainText(victim);
  await deleteDialog.getByRole('button', { name: T.apply }).click();
  await expect(deleteDialog).toBeHidden();

  const budget = await refusingBudget(stack.kubeconfig, victim);
  // The Nodes row says the drain is blocked, and by which budget.
  await expect(rowOf(victim).locator('[data-row-problem="drain"]')).toHaveText(T.blocked(budget), {
    timeout: 30_000,
  });

  // The machine page: the step, the refusal with the budget's name, the drain time, forever.
  const machinePage = await context.newPage();
  await machinePage.goto(`/clusters/${NS}/${CLUSTER}/nodes/${victim}`);
  const panel = machinePage.getByRole('region', { name: T.deletion });
  await expect(panel).toHaveAttribute('data-step', 'DrainingNode', { timeout: 30_000 });
  await expect(
    panel.getByRole('list', { name: T.steps }).locator('li[aria-current="step"]'),
  ).toContainText(T.draining);
  await expect(panel.getByRole('region', { name: T.refused })).toContainText(T.pdb(budget));
  await expect(panel.getByTestId('drain-time')).toHaveText(T.forever);
  await expect(panel.getByRole('list', { name: T.actions })).toContainText(
    'machine.cluster.x-k8s.io/exclude-node-draining',
  );
  await shot(machinePage, testInfo, `drain-machine-${lang}`);
  if (zh) await expectChinese(machinePage, 'the machine page while its drain is blocked');

  // The pool's card names the budget.
  const poolPage = await context.newPage();
  await poolPage.goto(`/clusters/${NS}/${CLUSTER}/node-pools/${POOL}`);
  await expect(poolPage.getByRole('group', { name: T.problems })).toContainText(T.blocked(budget), {
    timeout: 30_000,
  });
  await shot(poolPage, testInfo, `drain-pool-${lang}`);
  if (zh) await expectChinese(poolPage, 'the pool page while a drain is blocked');
  await poolPage.close();

  // The operator sets a short nodeDrainTimeout on the pool, from the machine page.
  await panel.getByRole('button', { name: T.edit }).click();
  const dialog = machinePage.getByRole('dialog', { name: T.strategyDialog });
  await dialog.getByRole('textbox', { name: T.drainField }).fill('20s');
  await dialog.getByRole('button', { name: T.preview }).click();
  await expect(dialog.getByRole('region', { name: T.plan })).toContainText('nodeDrainTimeout');
  await dialog.getByRole('button', { name: T.save }).click();
  await expect(dialog).toBeHidden();

  // Past it, Cluster API gives the drain up and deletes the machine: it goes.
  await expect(machinePage.getByText(T.notFound(victim))).toBeVisible({ timeout: 120_000 });
  await expect(rowOf(victim)).toHaveCount(0, { timeout: 30_000 });
  await machinePage.close();
}

test('a drain blocked by a PodDisruptionBudget: the machine page shows the step, the budget, the drain time and that it waits forever; the pool card and the Nodes row name the budget; a short nodeDrainTimeout ends it and the machine goes', async ({
  page,
  context,
  signIn,
  stack,
}, testInfo) => {
  test.setTimeout(300_000);
  await journey('en', { page, context, signIn, stack }, testInfo);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('被 PodDisruptionBudget 阻止的排空：machine 页面显示步骤、预算、排空时长与一直等待；节点池卡片与节点行指出预算；较短的 nodeDrainTimeout 使其结束，machine 随之删除', async ({
    page,
    context,
    signIn,
    stack,
  }, testInfo) => {
    test.setTimeout(300_000);
    await journey('zh-CN', { page, context, signIn, stack }, testInfo);
  });
});

test('for a viewer: the drain is shown, the nodeDrainTimeout edit is off and says which access review refused it', async ({
  page,
  signIn,
  stack,
}, testInfo) => {
  test.setTimeout(240_000);
  // A timeout long enough for the viewer to look (10m simulated: 150 s here).
  await setPoolDrainTimeout(stack.kubeconfig, '10m');
  const victim = await aRunningMachine(stack.kubeconfig, /^10m(0s)?$/);
  await holdDrain(stack.kubeconfig, victim, testInfo.outputDir);
  await kubectl(stack.kubeconfig, 'delete', 'machine', victim, '--wait=false');
  const budget = await refusingBudget(stack.kubeconfig, victim);

  await signIn('viewer');
  await page.goto(`/clusters/${NS}/${CLUSTER}/nodes/${victim}`);
  const panel = page.getByRole('region', { name: 'Deletion' });
  await expect(panel).toHaveAttribute('data-step', 'DrainingNode', { timeout: 30_000 });
  await expect(panel.getByRole('region', { name: 'Evictions refused' })).toContainText(
    `PodDisruptionBudget ${budget} needs`,
  );
  await expect(panel.getByTestId('drain-time')).toHaveText(
    /^Draining for .+; nodeDrainTimeout is 10m\.$/,
  );
  const edit = panel.getByRole('button', { name: 'Edit nodeDrainTimeout' });
  await expect(edit).toHaveAttribute('aria-disabled', 'true');
  await expect(edit).toHaveAccessibleDescription(/patch\b.*machinedeployment/i);
  await shot(page, testInfo, 'drain-machine-viewer');
  // Let it go (the stack is this spec's own).
  await setPoolDrainTimeout(stack.kubeconfig, '1s');
});
