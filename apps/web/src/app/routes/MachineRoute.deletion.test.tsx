// @vitest-environment happy-dom
import { ANNOTATION_EXCLUDE_NODE_DRAINING, type ObjectSet } from '@dcs/domain';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route } from '../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '../../i18n/locale';
import { contextWire, stubApi } from '../../test/api';
import { demoClusterViews } from '../../test/fixtures';
import { renderInApp } from '../../test/render';
import { MachineRoute } from './MachineRoute';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/**
 * Issue 26 item 6: a deleting machine's page shows its deletion step, while it drains what the
 * drain waits for (the Pods being evicted, the evictions a PodDisruptionBudget refuses), how long
 * it has drained against nodeDrainTimeout, and what the operator can do; the viewer's edit is off
 * with the reason.
 */

const NAME = 'demo-md-0-abc12-m1';
const SLOW = { timeout: 15_000 };
const STARTED = '2026-01-01T00:50:00Z';
/** Cluster API v1.14's drain message (EvictionResult.ConditionMessage) with upstream's truncations. */
const UPSTREAM = [
  `Drain not completed yet (started at ${STARTED}):`,
  '* Pods with deletionTimestamp that still exist: default/api-1, default/api-2, default/api-3, ... (2 more)',
  '* Pods with eviction failed:',
  "  * Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web-pdb needs 2 healthy pods and has 2 currently: shop/web-1",
  '  * some other error: ns/x',
  '  * ... (3 more errors applying to 4 Pods)',
].join('\n');
/** What the simulator writes today: one line per Pod. */
const SIMULATOR = `Drain not completed yet (started at ${STARTED}):\n* Pod default/web-abcde: cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 1 healthy pods and has 1 currently`;

interface Deleting {
  reason?: string;
  message?: string;
  timeout?: string;
  v1beta1Only?: boolean;
  annotations?: Record<string, string>;
}

function deleting(o: Deleting = {}) {
  return (objects: ObjectSet) => {
    const m = objects.machines?.find((x) => x.metadata.name === NAME);
    if (!m) throw new Error(`no machine ${NAME}`);
    m.metadata.deletionTimestamp = '2026-01-01T00:49:00Z';
    if (o.annotations) m.metadata.annotations = { ...m.metadata.annotations, ...o.annotations };
    if (o.timeout && m.spec) m.spec.nodeDrainTimeout = o.timeout;
    const reason = o.reason ?? 'DrainingNode';
    m.status = {
      ...m.status,
      deletion: { nodeDrainStartTime: STARTED },
      conditions: [
        ...(m.status?.conditions ?? []),
        {
          type: 'DrainingSucceeded',
          status: 'False',
          reason: 'Draining',
          severity: 'Info',
          message: o.message ?? UPSTREAM,
        },
      ],
      ...(o.v1beta1Only
        ? {}
        : {
            v1beta2: {
              conditions: [
                { type: 'Deleting', status: 'True', reason, message: o.message ?? UPSTREAM },
              ],
            },
          }),
    };
  };
}

async function renderPage(
  o: Deleting = {},
  locale: Locale = 'en',
  role: 'operator' | 'viewer' = 'operator',
) {
  // Date follows real time from 01:00, ten minutes into the drain.
  vi.useFakeTimers({
    toFake: ['Date'],
    now: Date.parse('2026-01-01T01:00:00Z'),
    shouldAdvanceTime: true,
  });
  const views = demoClusterViews(deleting(o));
  stubApi({
    '/clusters/cpaas-system/demo/machines': { items: views.machines },
    '/clusters/cpaas-system/demo/nodepools': views.pools,
    '/clusters/cpaas-system/demo/context': contextWire(role),
  });
  renderInApp(
    <MemoryRouter initialEntries={[`/clusters/cpaas-system/demo/nodes/${NAME}`]}>
      <Route path="/clusters/:namespace/:cluster/nodes/:machine">
        <MachineRoute />
      </Route>
    </MemoryRouter>,
    { locale },
  );
  return screen.findByRole('region', { name: locale === 'en' ? 'Deletion' : '删除' }, SLOW);
}

const stepsOf = (panel: HTMLElement, name: string) =>
  within(within(panel).getByRole('list', { name }))
    .getAllByRole('listitem')
    .map((li) => `${li.getAttribute('data-state') ?? ''}:${li.firstChild?.textContent ?? ''}`);

describe('the machine page’s Deletion panel (issue 26 item 6)', () => {
  it('draining, blocked by a PodDisruptionBudget, no nodeDrainTimeout: the step, the Pods, the budget, forever, the actions', async () => {
    const panel = await renderPage();
    expect(within(panel).getByText('Deleting: DrainingNode')).toBeTruthy();
    expect(stepsOf(panel, 'Deletion steps')).toEqual([
      'done:Waiting for pre-drain hooks',
      'current:Draining node',
      'pending:Waiting for volumes to detach',
      'pending:Waiting for pre-terminate hooks',
      'pending:Deleting the VM',
      'pending:Deleting the bootstrap config',
      'pending:Deleting the Node',
    ]);
    expect(within(panel).getByTestId('drain-time').textContent).toBe(
      'Draining for 10m. No nodeDrainTimeout is set: the drain waits forever, until every Pod is evicted (Cluster API’s default).',
    );
    const evicting = within(panel).getByRole('region', { name: 'Pods being evicted' });
    expect(evicting.textContent).toContain(
      'default/api-1, default/api-2, default/api-3 … and 2 more',
    );
    const refused = within(panel).getByRole('region', { name: 'Evictions refused' });
    const pdb = refused.querySelector('[data-pdb="web-pdb"]');
    expect(pdb?.textContent).toBe(
      'PodDisruptionBudget web-pdb needs 2 healthy Pods and has 2: one more eviction would break it.shop/web-1',
    );
    expect(within(refused).getByText('The eviction failed: some other error')).toBeTruthy();
    expect(within(refused).getByText('… and 3 more errors for 4 Pods')).toBeTruthy();
    // What the operator can do, in order, each with its consequence.
    const actions = within(panel).getByRole('list', { name: 'What you can do' });
    expect(
      [...actions.querySelectorAll(':scope > li')].map((li) => li.getAttribute('data-action')),
    ).toEqual(['wait', 'fix-pdb', 'set-drain-timeout', 'exclude-node-draining']);
    expect(
      actions.querySelector('pre[aria-label="Command: inspect the PodDisruptionBudget"]')
        ?.textContent,
    ).toBe(
      "kubectl get secret demo-kubeconfig -n cpaas-system -o jsonpath='{.data.value}' | base64 -d > demo.kubeconfig\nkubectl --kubeconfig demo.kubeconfig get poddisruptionbudget web-pdb -n shop -o yaml",
    );
    expect(actions.querySelector('pre[aria-label="Command: skip the drain"]')?.textContent).toBe(
      `kubectl annotate machine ${NAME} -n cpaas-system machine.cluster.x-k8s.io/exclude-node-draining=""`,
    );
    expect(within(actions).getByText(/Set a nodeDrainTimeout on pool demo-md-0/)).toBeTruthy();
    // The operator's edit opens the pool's rollout settings, where nodeDrainTimeout is.
    const edit = await within(actions).findByRole('button', { name: 'Edit nodeDrainTimeout' });
    await waitFor(() => {
      expect(edit.getAttribute('aria-disabled')).toBeNull();
    }, SLOW);
    act(() => {
      edit.click();
    });
    expect(
      await screen.findByRole('heading', { name: 'Rollout settings of demo-md-0' }, SLOW),
    ).toBeTruthy();
  });

  it('the drain time ticks; past a nodeDrainTimeout it says the deletion goes on, and offers to change it', async () => {
    const panel = await renderPage({ timeout: '15m' });
    expect(within(panel).getByTestId('drain-time').textContent).toBe(
      'Draining for 10m; nodeDrainTimeout is 15m.',
    );
    expect(
      within(panel).getByText(/Change the nodeDrainTimeout of pool demo-md-0 \(15m now\)/),
    ).toBeTruthy();
    act(() => {
      vi.setSystemTime(Date.parse('2026-01-01T01:06:00Z'));
    });
    await waitFor(() => {
      expect(within(panel).getByTestId('drain-time').textContent).toBe(
        'Draining for 16m: past the nodeDrainTimeout of 15m, Cluster API stops draining and goes on deleting.',
      );
    }, SLOW);
  });

  it('the simulator’s per-Pod lines and a v1beta1-only machine (DrainingSucceeded) give the same panel', async () => {
    const panel = await renderPage({ message: SIMULATOR, v1beta1Only: true });
    expect(panel.getAttribute('data-step')).toBe('DrainingNode');
    expect(within(panel).getByText('Deleting: DrainingNode')).toBeTruthy();
    expect(panel.querySelector('[data-pdb="web"]')?.textContent).toContain(
      'PodDisruptionBudget web needs 1 healthy Pod and has 1',
    );
  });

  it('a later step: no drain, no actions; the skipped drain is said', async () => {
    const panel = await renderPage({
      reason: 'WaitingForInfrastructureDeletion',
      annotations: { [ANNOTATION_EXCLUDE_NODE_DRAINING]: '' },
    });
    expect(stepsOf(panel, 'Deletion steps').filter((s) => s.startsWith('current:'))).toEqual([
      'current:Deleting the VM',
    ]);
    expect(within(panel).queryByTestId('drain-time')).toBeNull();
    expect(within(panel).queryByRole('list', { name: 'What you can do' })).toBeNull();
    expect(
      within(panel).getByText(/exclude-node-draining annotation: Cluster API skips its drain/),
    ).toBeTruthy();
  });

  it('in Chinese, for a viewer: the edit is off and says why', async () => {
    const panel = await renderPage({}, 'zh-CN', 'viewer');
    expect(within(panel).getByTestId('drain-time').textContent).toContain(
      '未设置 nodeDrainTimeout',
    );
    expect(panel.querySelector('[data-pdb="web-pdb"]')?.textContent).toContain(
      'PodDisruptionBudget web-pdb 需要 2 个健康 Pod，现有 2 个',
    );
    const edit = await within(panel).findByRole('button', { name: '编辑 nodeDrainTimeout' }, SLOW);
    await waitFor(() => {
      expect(edit.getAttribute('aria-disabled')).toBe('true');
    }, SLOW);
    expect(edit.getAttribute('aria-describedby')).toBeTruthy();
    const reason = document.getElementById(edit.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toMatch(/不允许.*patch/);
  });
});
