import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { NS, expect, kubectl, snap, test, workloadKubeconfig } from '../fixtures';

/**
 * Issue 12: a Node's deletion, end to end. A targeted delete (O-SCALE-DOWN-TARGETED) of one
 * machine of dev-west-full, followed in both machine views (the Nodes tab's Node column and the
 * machine page, open side by side) while Cluster API cordons and drains the machine's Node in the
 * workload cluster, then deletes it; kubectl against the workload cluster (through the
 * `dev-west-kubeconfig` Secret, as the documents' last step does) agrees.
 *
 * Making the drain last long enough to be seen, with nothing faked:
 * - the machine's drain is held as a PodDisruptionBudget holds a real one, by the simulator's
 *   failure injection `drain-stuck` (annotation `sim.dcs.io/fail` on the machine: the Machine
 *   reports "cannot evict pod as it would violate the pod's disruption budget"), until the pool's
 *   nodeDrainTimeout (1m) runs out and Cluster API goes on with the deletion, as it does;
 * - this spec's stack runs at 4 simulated seconds per real second (the others' at 30), so that the
 *   drain lasts ~15 s and the VM's deletion (the Node cordoned, no longer draining) 2–8 s.
 * What each view showed is recorded as it changes (a MutationObserver in the page), and the test
 * waits on conditions only: the order of states is asserted at the end, whatever the load.
 *
 * Its own stack (`stackName`): no other journey sees dev-west-full lose a machine.
 */

test.use({ stackName: 'node-deletion', timeScale: 4 });

const run = promisify(execFile);
const POOL = 'dev-west-full';
const CLUSTER = 'dev-west';

/**
 * Starts recording, in the page, each new value of what one view shows of the victim (read on
 * every DOM change): `column`, the Node column of its row on the Nodes tab (its state, `+problem`
 * when the row carries a Node problem badge, `gone` without the row); `page`, the machine page's
 * Node section (state, cordoned or not, tainted unschedulable or not; `gone` without it).
 */
async function record(page: Page, view: 'column' | 'page', machine: string): Promise<void> {
  await page.evaluate(
    ({ view: which, machine: name }) => {
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
        const s = document.querySelector('section[aria-label="Node in the workload cluster"]');
        if (!s) return 'gone';
        const state =
          s.querySelector('[data-node-state]')?.getAttribute('data-node-state') ?? 'no-state';
        const cordoned = [...s.querySelectorAll('dd')].some((d) => d.textContent === 'Yes');
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
    { view, machine },
  );
}

const recorded = (page: Page, view: 'column' | 'page'): Promise<string[]> =>
  page.evaluate(
    (key) => (window as unknown as Record<string, string[] | undefined>)[key] ?? [],
    `seen-${view}`,
  );

/** Removes consecutive repeats. */
const steps = (values: readonly string[]) => values.filter((v, i) => v !== values[i - 1]);

test('a targeted delete: the machine’s Node is cordoned and drained, then deleted with its machine, in the Node column, on the machine page and in kubectl', async ({
  page,
  context,
  signIn,
  nodes,
  stack,
}, testInfo) => {
  test.setTimeout(300_000);
  const dir = mkdtempSync(join(tmpdir(), 'dcs-e2e-workload-'));
  const workload = join(dir, 'kubeconfig');
  const kubectlWorkload = async (...args: string[]) =>
    (await run('kubectl', ['--kubeconfig', workload, ...args])).stdout;
  try {
    await signIn('operator');
    const tab = nodes(CLUSTER);
    await tab.goto();
    const rows = tab.rowsOfPool(POOL);
    // Every machine of the pool has joined: each row's Node is Ready.
    await expect(rows).toHaveCount(4, { timeout: 120_000 });
    await expect(rows.locator('[data-node-state="Ready"]')).toHaveCount(4, { timeout: 120_000 });
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
    const section = machinePage.getByRole('region', { name: 'Node in the workload cluster' });
    await expect(section.locator('[data-node-state]')).toHaveText('Ready', { timeout: 30_000 });
    await expect(section.getByRole('definition').filter({ hasText: /^No$/ })).toHaveCount(1);
    // The Node column of the victim's row; the machine page's state, cordon and taints.
    await record(page, 'column', victim);
    await record(machinePage, 'page', victim);

    // Hold the drain, as a PodDisruptionBudget would (until nodeDrainTimeout).
    await kubectl(stack.kubeconfig, 'annotate', 'machine', victim, 'sim.dcs.io/fail=drain-stuck');

    // O-SCALE-DOWN-TARGETED: exactly this machine.
    await tab.select(victim).check();
    await tab.deleteSelected().click();
    const dialog = page.getByRole('dialog', { name: `Delete 1 machine of ${POOL}` });
    await dialog.getByRole('button', { name: 'Preview plan' }).click();
    await expect(dialog.getByRole('region', { name: 'Plan' })).toContainText(
      `Mark machine ${victim} for deletion`,
    );
    await dialog.getByRole('button', { name: 'Delete selected machines' }).click();
    await expect(dialog).toBeHidden();

    // kubectl in the workload cluster: the Node cordoned (unschedulable, tainted) for the drain.
    await expect
      .poll(async () => (await nodeSpec())?.unschedulable, { timeout: 60_000 })
      .toBe(true);
    expect((await nodeSpec())?.taints?.map((t) => t.key)).toContain(
      'node.kubernetes.io/unschedulable',
    );
    await expect(tab.row(victim).locator('[data-node-state]')).toHaveAttribute(
      'data-node-state',
      /Draining|Cordoned|Deleted/,
      { timeout: 60_000 },
    );
    await snap(page, testInfo, 'node-deletion-column');
    await snap(machinePage, testInfo, 'node-deletion-machine');

    // Cluster API gives up the held drain at nodeDrainTimeout, deletes the VM, then the Node,
    // then lets the machine go: gone from both views and from kubectl.
    await expect(
      machinePage.getByText(`Machine ${victim} does not exist in this cluster.`),
    ).toBeVisible({ timeout: 120_000 });
    await expect(tab.row(victim)).toHaveCount(0, { timeout: 30_000 });
    await expect
      .poll(async () => (await kubectlWorkload('get', 'nodes', '-o', 'name')).split('\n'), {
        timeout: 30_000,
      })
      .not.toContain(`node/${node}`);
    await expect(rows).toHaveCount(3);
    await expect(rows.locator('[data-node-state="Ready"]')).toHaveCount(3);
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
});
