import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import {
  NS,
  expect,
  expectChinese,
  kubectl,
  kubectlAt,
  snap,
  test,
  workloadKubeconfig,
} from '../fixtures';

/**
 * Issue 12: a Node's deletion, end to end. A targeted delete (O-SCALE-DOWN-TARGETED) of one
 * machine of dev-west-full, followed in both machine views (the Nodes tab's Node column and the
 * machine page, open side by side) while Cluster API cordons and drains the machine's Node in the
 * workload cluster, then deletes it; kubectl against the workload cluster (through the
 * `dev-west-kubeconfig` Secret, as the documents' last step does) agrees.
 *
 * Making the drain last long enough to be seen, with nothing faked:
 * - the machine's drain is held by a real PodDisruptionBudget: the simulator's failure injection
 *   `drain-stuck` (annotation `sim.dcs.io/fail` on the machine) is a budget `drain-stuck-<node>`
 *   in the workload cluster over the Node's web replica that allows no disruption, so the
 *   Eviction API answers 429 and the Machine reports "Cannot evict pod as it would violate the
 *   pod's disruption budget. The disruption budget … needs 1 healthy pods and has 1 currently",
 *   until the pool's nodeDrainTimeout (1m) runs out and Cluster API goes on with the deletion;
 * - this spec's stack runs at 4 simulated seconds per real second (the others' at 30), so that the
 *   drain lasts ~15 s and the VM's deletion (the Node cordoned, no longer draining) 2–8 s.
 * What each view showed is recorded as it changes (a MutationObserver in the page), and the test
 * waits on conditions only: the order of states is asserted at the end, whatever the load.
 *
 * Its own stack (`stackName`): no other journey sees dev-west-full lose a machine.
 */

test.use({ stackName: 'node-deletion', timeScale: 4 });

const POOL = 'dev-west-full';
const CLUSTER = 'dev-west';

/** What the journey reads on screen, in each language (the console's catalogs, written out). */
const TEXTS = {
  en: {
    heading: 'Nodes',
    table: `Machines of ${CLUSTER}`,
    select: (m: string) => `Select ${m}`,
    deleteSelected: /^Delete selected machines/,
    dialog: `Delete 1 machine of ${POOL}`,
    preview: 'Preview plan',
    plan: 'Plan',
    mark: (m: string) => `Mark machine ${m} for deletion`,
    apply: 'Delete selected machines',
    notFound: (m: string) => `Machine ${m} does not exist in this cluster.`,
    nodeSection: 'Node in the workload cluster',
    yes: 'Yes',
    no: 'No',
    ready: 'Ready',
    deletionStep: /Deleting: (DrainingNode|WaitingFor\w+|DeletingNode)/,
  },
  'zh-CN': {
    heading: '节点',
    table: `${CLUSTER} 的 machine`,
    select: (m: string) => `选择 ${m}`,
    deleteSelected: /^删除所选 machine/,
    dialog: `删除 ${POOL} 的 1 台 machine`,
    preview: '预览计划',
    plan: '计划',
    mark: (m: string) => `将 machine ${m} 标记为待删除`,
    apply: '删除所选 machine',
    notFound: (m: string) => `此集群中不存在 machine ${m}。`,
    nodeSection: '工作负载集群中的节点',
    yes: '是',
    no: '否',
    ready: '就绪',
    deletionStep: /删除中：(DrainingNode|WaitingFor\w+|DeletingNode)/,
  },
} as const;
type Lang = keyof typeof TEXTS;
type Texts = (typeof TEXTS)[Lang];

/**
 * Starts recording, in the page, each new value of what one view shows of the victim (read on
 * every DOM change): `column`, the Node column of its row on the Nodes tab (its state, `+problem`
 * when the row carries a Node problem badge, `gone` without the row); `page`, the machine page's
 * Node section (state, cordoned or not, tainted unschedulable or not; `gone` without it).
 */
async function record(
  page: Page,
  view: 'column' | 'page',
  machine: string,
  texts: Texts,
): Promise<void> {
  await page.evaluate(
    ({ view: which, machine: name, section, yes }) => {
      const read = (): string => {
        if (which === 'column') {
          const link = [...document.querySelectorAll('table a')].find(
            (a) => a.textContent === name,
          );
          const row = link?.closest('tr');
          if (!row) return 'gone';
          const state = row.querySelector('[data-node-state]')?.getAttribute('data-node-state');
          const problem = row.querySelector('[data-row-problem="node"]') ? '+problem' : '';
          return `${state ?? 'none'}${problem}`;
        }
        const s = document.querySelector(`section[aria-label="${section}"]`);
        if (!s) return 'gone';
        const state =
          s.querySelector('[data-node-state]')?.getAttribute('data-node-state') ?? 'no-state';
        const cordoned = [...s.querySelectorAll('dd')].some((d) => d.textContent === yes);
        const tainted = s.textContent.includes('node.kubernetes.io/unschedulable');
        return [
          state,
          cordoned ? 'cordoned' : 'schedulable',
          tainted ? 'tainted' : 'untainted',
        ].join(' ');
      };
      const w = window as unknown as Record<string, string[]>;
      const seen: string[] = (w[`seen-${which}`] = []);
      const note = () => {
        const v = read();
        if (seen[seen.length - 1] !== v) seen.push(v);
      };
      note();
      new MutationObserver(note).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
    },
    { view, machine, section: texts.nodeSection, yes: texts.yes },
  );
}

const recorded = (page: Page, view: 'column' | 'page'): Promise<string[]> =>
  page.evaluate(
    (key) => (window as unknown as Record<string, string[] | undefined>)[key] ?? [],
    `seen-${view}`,
  );

/** Removes consecutive repeats. */
const steps = (values: readonly string[]) => values.filter((v, i) => v !== values[i - 1]);

/**
 * The journey in `lang` (the page's locale). Run in English, then in Chinese on the same stack:
 * each deletes one machine of the pool, so the rows are counted from the pool's replicas.
 */
async function journey(
  lang: Lang,
  { page, context, signIn, stack }: Pick<Args, 'page' | 'context' | 'signIn' | 'stack'>,
  testInfo: TestInfo,
): Promise<void> {
  const T = TEXTS[lang];
  const zh = lang === 'zh-CN';
  const dir = mkdtempSync(join(tmpdir(), 'dcs-e2e-workload-'));
  const workload = join(dir, 'kubeconfig');
  const kubectlWorkload = (...args: string[]) => kubectlAt(workload, ...args);
  try {
    await signIn('operator');
    await page.goto(`/clusters/${NS}/${CLUSTER}/nodes`);
    await expect(page.getByRole('heading', { name: T.heading, level: 2 })).toBeVisible();
    const table = page.getByRole('table', { name: T.table });
    const rowOf = (name: string) =>
      table.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
    const rows = rowOf(POOL);
    const replicas = Number(
      await kubectl(
        stack.kubeconfig,
        'get',
        'machinedeployment',
        POOL,
        '-o',
        'jsonpath={.spec.replicas}',
      ),
    );
    expect(replicas, 'the pool’s replicas').toBeGreaterThanOrEqual(2);
    // Every machine of the pool has joined: each row's Node is Ready.
    await expect(rows).toHaveCount(replicas, { timeout: 120_000 });
    await expect(rows.locator('[data-node-state="Ready"]')).toHaveCount(replicas, {
      timeout: 120_000,
    });
    await expect(rows.locator('[data-node-state="Ready"]').first()).toHaveText(T.ready);
    const victim = (await rows.nth(1).getByRole('link').first().textContent()) ?? '';
    expect(victim).toMatch(new RegExp(`^${POOL}-`));
    const node = (
      await kubectl(
        stack.kubeconfig,
        'get',
        'machine',
        victim,
        '-o',
        'jsonpath={.status.nodeRef.name}',
      )
    ).trim();
    expect(node, 'the machine’s nodeRef').not.toBe('');
    // The workload cluster's kubeconfig, as Cluster API writes it.
    writeFileSync(workload, await workloadKubeconfig(stack.kubeconfig, CLUSTER));
    const nodeSpec = async () =>
      (
        JSON.parse(await kubectlWorkload('get', 'node', node, '-o', 'json')) as {
          spec?: { unschedulable?: boolean; taints?: { key: string }[] };
        }
      ).spec;
    expect((await nodeSpec())?.unschedulable).toBeUndefined();

    // The machine page, open beside the Nodes tab: both follow the deletion live.
    const machinePage = await context.newPage();
    await machinePage.goto(`/clusters/${NS}/${CLUSTER}/nodes/${victim}`);
    const section = machinePage.getByRole('region', { name: T.nodeSection });
    await expect(section.locator('[data-node-state]')).toHaveText(T.ready, { timeout: 30_000 });
    await expect(
      section.getByRole('definition').filter({ hasText: new RegExp(`^${T.no}$`) }),
    ).toHaveCount(1);
    if (zh) await expectChinese(machinePage, 'the machine page');
    // The Node column of the victim's row; the machine page's state, cordon and taints.
    await record(page, 'column', victim, T);
    await record(machinePage, 'page', victim, T);

    // Hold the drain, as a PodDisruptionBudget would (until nodeDrainTimeout).
    await kubectl(stack.kubeconfig, 'annotate', 'machine', victim, 'sim.dcs.io/fail=drain-stuck');

    // O-SCALE-DOWN-TARGETED: exactly this machine.
    await page.getByRole('checkbox', { name: T.select(victim) }).check();
    await page.getByRole('button', { name: T.deleteSelected }).click();
    const dialog = page.getByRole('dialog', { name: T.dialog });
    await dialog.getByRole('button', { name: T.preview }).click();
    await expect(dialog.getByRole('region', { name: T.plan })).toContainText(T.mark(victim));
    if (zh) await expectChinese(page, 'the delete dialog’s plan');
    await dialog.getByRole('button', { name: T.apply }).click();
    await expect(dialog).toBeHidden();

    // kubectl in the workload cluster: the Node cordoned (unschedulable, tainted) for the drain.
    await expect
      .poll(async () => (await nodeSpec())?.unschedulable, { timeout: 60_000 })
      .toBe(true);
    // The taint follows the cordon (upstream's node lifecycle controller adds it; here the kubelet).
    await expect
      .poll(async () => (await nodeSpec())?.taints?.map((t) => t.key) ?? [], { timeout: 30_000 })
      .toContain('node.kubernetes.io/unschedulable');
    // The hold is a PodDisruptionBudget kubectl sees, allowing no disruption of the Node's web
    // replica; the Node's Pods as a drain lists them (spec.nodeName): that replica and the
    // DaemonSet's kube-proxy, which the drain leaves.
    await expect
      .poll(
        async () =>
          kubectlWorkload(
            'get',
            'pdb',
            `drain-stuck-${node}`,
            '-n',
            'default',
            '-o',
            'jsonpath={.spec.minAvailable}/{.status.disruptionsAllowed}',
          ).catch(() => ''),
        { timeout: 30_000 },
      )
      .toBe('1/0');
    const owners = await kubectlWorkload(
      'get',
      'pods',
      '-A',
      '--field-selector',
      `spec.nodeName=${node}`,
      '-o',
      'jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.ownerReferences[0].kind} {end}',
    );
    expect(owners).toContain('default/ReplicaSet');
    expect(owners).toContain('kube-system/DaemonSet');
    await expect(rowOf(victim).locator('[data-node-state]')).toHaveAttribute(
      'data-node-state',
      /Draining|Cordoned|Deleted/,
      { timeout: 60_000 },
    );
    // Cluster API v1beta2's Deleting condition (v1.14): the machine page names the step.
    await expect(machinePage.getByTestId('deletion-step')).toContainText(T.deletionStep, {
      timeout: 30_000,
    });
    await snap(page, testInfo, `node-deletion-column-${lang}`);
    await snap(machinePage, testInfo, `node-deletion-machine-${lang}`);
    if (zh) {
      await expectChinese(page, 'the Nodes tab while the Node drains');
      await expectChinese(machinePage, 'the machine page while the Node drains');
    }

    // Cluster API gives up the held drain at nodeDrainTimeout, deletes the VM, then the Node,
    // then lets the machine go: gone from both views and from kubectl.
    await expect(machinePage.getByText(T.notFound(victim))).toBeVisible({ timeout: 120_000 });
    await expect(rowOf(victim)).toHaveCount(0, { timeout: 30_000 });
    await expect
      .poll(async () => (await kubectlWorkload('get', 'nodes', '-o', 'name')).split('\n'), {
        timeout: 30_000,
      })
      .not.toContain(`node/${node}`);
    await expect(rows).toHaveCount(replicas - 1);
    await expect(rows.locator('[data-node-state="Ready"]')).toHaveCount(replicas - 1);
    // What each view showed, in order. The Node column: Ready, then Draining (the row is never
    // flagged as a problem: Cluster API cordons and drains on purpose), then the row is gone.
    const column = steps(await recorded(page, 'column'));
    expect(column[0]).toBe('Ready');
    expect(column.at(-1)).toBe('gone');
    expect(column).toContain('Draining');
    expect(column.every((s) => !s.endsWith('+problem'))).toBe(true);
    const order = ['Ready', 'Draining', 'Cordoned', 'Deleted', 'gone'];
    const ranks = column.map((s) => order.indexOf(s));
    expect(
      ranks.every((r) => r >= 0),
      column.join(' → '),
    ).toBe(true);
    expect(ranks, column.join(' → ')).toEqual([...ranks].sort((a, b) => a - b));
    // The machine page: Ready and schedulable, then Draining, cordoned and tainted; then gone.
    const machineSteps = steps(await recorded(machinePage, 'page'));
    expect(machineSteps[0]).toBe('Ready schedulable untainted');
    expect(machineSteps, machineSteps.join(' → ')).toContain('Draining cordoned tainted');
    expect(machineSteps.at(-1)).toBe('gone');
    testInfo.annotations.push(
      { type: 'Node column', description: column.join(' → ') },
      { type: 'machine page', description: machineSteps.join(' → ') },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Args = Parameters<Parameters<typeof test>[2]>[0];

test('a targeted delete: the machine’s Node is cordoned and drained, then deleted with its machine, in the Node column, on the machine page and in kubectl', async ({
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
  test('定向删除：machine 的节点被封锁、排空，随 machine 一起删除（节点列、machine 页面与 kubectl）', async ({
    page,
    context,
    signIn,
    stack,
  }, testInfo) => {
    test.setTimeout(300_000);
    await journey('zh-CN', { page, context, signIn, stack }, testInfo);
  });
});
