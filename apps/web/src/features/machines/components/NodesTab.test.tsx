// @vitest-environment happy-dom
import { clusterNodeSummaries, machineView, nodeViewsOf, type Machine } from '@dcs/domain';
import { aMachine, aNode } from '@dcs/domain/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '../../../i18n/locale';
import { contextWire, stubApi } from '../../../test/api';
import { NOW } from '../../../test/fixtures';
import { withLaidOutElements } from '../../../test/layout';
import { renderInApp } from '../../../test/render';
import { NodesTab } from './NodesTab';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

withLaidOutElements();

/**
 * Issue 12: the Nodes tab's "Problems only" keeps a Running machine whose only problem is its
 * Node in the workload cluster (NotReady, cordoned, under pressure), and that row's badge says
 * so: both read domain's `machineRowProblems`.
 */

const SLOW = { timeout: 15_000 };
const SECRET = 'cpaas-system/demo-kubeconfig';
const names = {
  healthy: 'demo-md-0-abc12-m1',
  notReady: 'demo-md-0-abc12-m2',
  cordoned: 'demo-md-0-abc12-m3',
  pressure: 'demo-md-0-abc12-m4',
  // Issue 26 item 6: being deleted, its drain refused by a PodDisruptionBudget.
  blocked: 'demo-md-0-abc12-m5',
};

const REFUSED =
  "Drain not completed yet (started at 2026-01-01T00:50:00Z):\n* Pods with eviction failed:\n  * Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently: default/web-1";

function renderTab(locale: Locale = 'en') {
  const machines: Machine[] = Object.values(names).map((name) =>
    name === names.blocked
      ? aMachine({
          metadata: { name, deletionTimestamp: '2026-01-01T00:49:00Z' },
          status: {
            v1beta2: {
              conditions: [
                { type: 'Deleting', status: 'True', reason: 'DrainingNode', message: REFUSED },
              ],
            },
          },
        })
      : aMachine({ metadata: { name } }),
  );
  const nodes = [
    aNode(names.healthy),
    aNode(names.notReady, {
      status: { conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletNotReady' }] },
    }),
    aNode(names.cordoned, { spec: { unschedulable: true } }),
    aNode(names.blocked, { spec: { unschedulable: true } }),
    aNode(names.pressure, {
      status: {
        conditions: [
          { type: 'MemoryPressure', status: 'True', reason: 'KubeletHasInsufficientMemory' },
          { type: 'Ready', status: 'True' },
        ],
      },
    }),
  ];
  stubApi({
    '/clusters/cpaas-system/demo/machines': {
      items: machines.map((m) => machineView(m, undefined, NOW)),
    },
    '/clusters/cpaas-system/demo/nodes': clusterNodeSummaries({
      status: 'ok',
      secret: SECRET,
      nodes: nodeViewsOf(nodes, machines),
    }),
    '/clusters/cpaas-system/demo/context': contextWire(),
  });
  renderInApp(
    <MemoryRouter>
      <NodesTab namespace="cpaas-system" cluster="demo" onDeleteSelected={() => undefined} />
    </MemoryRouter>,
    { locale },
  );
}

const shownNames = (table: HTMLElement) =>
  within(table)
    .getAllByRole('link')
    .map((a) => a.textContent)
    .filter((n) => n.startsWith('demo-md-0-abc12-'));

const badgeOf = (table: HTMLElement, name: string) =>
  within(table).getByRole('link', { name }).closest('tr')?.querySelector('[data-row-problem]')
    ?.textContent;

describe('the Nodes tab’s "Problems only" counts the machine’s Node (issue 12)', () => {
  it('keeps the machines whose Node is NotReady, cordoned or under pressure, each with a badge that says so', async () => {
    renderTab();
    const table = await screen.findByRole('table', { name: 'Machines of demo' }, SLOW);
    // Wait for the Node join (a second answer): the NotReady row's badge.
    await waitFor(() => {
      expect(badgeOf(table, names.notReady)).toBe('Node NotReady');
    }, SLOW);
    expect(badgeOf(table, names.cordoned)).toBe('Node cordoned');
    expect(badgeOf(table, names.pressure)).toBe('Node under pressure: MemoryPressure');
    expect(badgeOf(table, names.healthy)).toBeUndefined();
    // A deleting machine's cordoned Node is no problem; the budget refusing its drain is.
    expect(badgeOf(table, names.blocked)).toBe('Drain blocked by PodDisruptionBudget web');
    expect(shownNames(table)).toHaveLength(5);

    fireEvent.click(screen.getByRole('switch', { name: 'Problems only' }));
    await waitFor(() => {
      expect(shownNames(table)).toEqual([
        names.notReady,
        names.cordoned,
        names.pressure,
        names.blocked,
      ]);
    }, SLOW);
  });

  it('speaks Chinese', async () => {
    renderTab('zh-CN');
    const table = await screen.findByRole('table', { name: 'demo 的 machine' }, SLOW);
    await waitFor(() => {
      expect(badgeOf(table, names.notReady)).toBe('节点未就绪');
    }, SLOW);
    expect(badgeOf(table, names.cordoned)).toBe('节点已封锁');
    expect(badgeOf(table, names.blocked)).toBe('排空被 PodDisruptionBudget web 阻止');
    fireEvent.click(screen.getByRole('switch', { name: '仅显示有问题的' }));
    await waitFor(() => {
      expect(shownNames(table)).toHaveLength(4);
    }, SLOW);
  });
});
