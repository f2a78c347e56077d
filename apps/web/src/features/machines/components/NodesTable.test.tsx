// @vitest-environment happy-dom
import {
  clusterNodeSummaries,
  machineView,
  nodeViewsOf,
  type ClusterNodeSummaries,
  type Machine,
  type MachineSort,
  type MachineSortKey,
  type MachineView,
} from '@dcs/domain';
import { aMachine, aNode } from '@dcs/domain/testing';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it } from 'vitest';
import { NOW } from '../../../test/fixtures';
import { withLaidOutElements } from '../../../test/layout';
import { renderInApp } from '../../../test/render';
import type { Locale } from '../../../i18n/locale';
import { NodesTable } from './NodesTable';

afterEach(cleanup);

withLaidOutElements();

/**
 * Issue 12: the Node column of the machines tables, joined by nodeRef from ONE answer of the
 * BFF's `…/nodes?fields=summary` (domain's views, from domain's builders), and the reason at the
 * column's header when the Nodes cannot be shown.
 */

/** Rendering is slow on a loaded machine: wait on the condition, generously. */
const SLOW = { timeout: 15_000 };
const SECRET = 'cpaas-system/demo-kubeconfig';

function machines(): { objects: Machine[]; views: MachineView[] } {
  const ready = aMachine({ metadata: { name: 'demo-md-0-abc12-m1' } });
  const noNode = aMachine({
    metadata: { name: 'demo-md-0-abc12-m2' },
    status: { phase: 'Provisioning' },
  });
  delete noNode.status?.nodeRef;
  const draining = aMachine({
    metadata: { name: 'demo-md-0-abc12-m3', deletionTimestamp: '2026-01-01T00:50:00Z' },
    status: {
      conditions: [
        {
          type: 'DrainingSucceeded',
          status: 'False',
          reason: 'Draining',
          severity: 'Info',
          lastTransitionTime: '2026-01-01T00:50:00Z',
        },
      ],
    },
  });
  const deleted = aMachine({
    metadata: { name: 'demo-md-0-abc12-m4', deletionTimestamp: '2026-01-01T00:40:00Z' },
  });
  const objects = [ready, noNode, draining, deleted];
  return { objects, views: objects.map((m) => machineView(m, undefined, NOW)) };
}

function okAnswer(objects: Machine[]): ClusterNodeSummaries {
  const nodes = [
    aNode('demo-md-0-abc12-m1', { status: { nodeInfo: { kubeletVersion: 'v1.33.5' } } }),
    aNode('demo-md-0-abc12-m3', { spec: { unschedulable: true } }),
  ];
  return clusterNodeSummaries({ status: 'ok', secret: SECRET, nodes: nodeViewsOf(nodes, objects) });
}

function renderTable(
  views: readonly MachineView[],
  nodes: ClusterNodeSummaries | undefined,
  locale: Locale = 'en',
  sort: MachineSort = { key: 'name', dir: 'asc' },
  onSort: (key: MachineSortKey) => void = () => undefined,
) {
  renderInApp(
    <MemoryRouter>
      <NodesTable
        machines={views}
        selected={new Set()}
        onToggle={() => undefined}
        onToggleAll={() => undefined}
        label="Machines of demo"
        sort={sort}
        onSort={onSort}
        nodes={nodes}
      />
    </MemoryRouter>,
    { locale },
  );
  return screen.getByRole('table', { name: 'Machines of demo' });
}

const rowOf = (table: HTMLElement, name: string) => {
  const link = within(table).getByRole('link', { name });
  const row = link.closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
};
const stateOf = (row: HTMLElement) =>
  row.querySelector('[data-node-state]')?.getAttribute('data-node-state');

describe('the Node column (issue 12)', () => {
  it('shows each machine’s Node state and kubelet version, joined by nodeRef', async () => {
    const { objects, views } = machines();
    const table = renderTable(views, okAnswer(objects));
    await screen.findByRole('link', { name: 'demo-md-0-abc12-m1' }, SLOW);
    const ready = rowOf(table, 'demo-md-0-abc12-m1');
    expect(stateOf(ready)).toBe('Ready');
    expect(within(ready).getByText('Ready')).toBeTruthy();
    // The kubelet's own version, which may differ from the Machine's spec.version (v1.33.4).
    expect(within(ready).getByText('v1.33.5')).toBeTruthy();
    expect(stateOf(rowOf(table, 'demo-md-0-abc12-m2'))).toBe('NoNode');
    expect(within(rowOf(table, 'demo-md-0-abc12-m2')).getByText('No Node yet')).toBeTruthy();
    // Cordoned while Cluster API drains the deleting machine: Draining, not just Cordoned.
    expect(stateOf(rowOf(table, 'demo-md-0-abc12-m3'))).toBe('Draining');
    // A deleting machine whose Node is already gone from the workload cluster.
    expect(stateOf(rowOf(table, 'demo-md-0-abc12-m4'))).toBe('Deleted');
    expect(screen.queryByTestId('nodes-unavailable')).toBeNull();
  });

  it('says at the column’s header why a viewer sees no Node states, and shows none', async () => {
    const { views } = machines();
    const table = renderTable(views, {
      status: 'forbidden',
      secret: SECRET,
      message: `you may not read secret ${SECRET}`,
    });
    await screen.findByRole('link', { name: 'demo-md-0-abc12-m1' }, SLOW);
    const reason = screen.getByRole('img', { name: /you may not read secret/ });
    expect(reason.getAttribute('aria-label')).toBe(
      `Node states are not shown: you may not read secret ${SECRET} (the workload cluster’s kubeconfig).`,
    );
    expect(table.querySelector('[data-node-state]')).toBeNull();
    // The nodeRef's name is still there: it comes from the Machine, which the viewer may read.
    expect(
      within(rowOf(table, 'demo-md-0-abc12-m1')).getByText('demo-md-0-abc12-m1', {
        selector: 'span',
      }),
    ).toBeTruthy();
  });

  it('says since when the workload cluster is unreachable, and that the control plane is not initialized', async () => {
    const { views } = machines();
    renderTable(views, {
      status: 'unreachable',
      secret: SECRET,
      since: '2026-01-01T00:30:00Z',
      message: 'connect ECONNREFUSED 127.0.0.1:6443',
    });
    const reason = await screen.findByRole('img', { name: /unreachable since/ }, SLOW);
    expect(reason.getAttribute('aria-label')).toMatch(/ECONNREFUSED/);
    cleanup();
    renderTable(views, { status: 'no-kubeconfig', secret: SECRET, message: 'not yet' });
    expect(
      (
        await screen.findByRole('img', { name: /control plane is not initialized/ }, SLOW)
      ).getAttribute('aria-label'),
    ).toContain(SECRET);
  });

  it('speaks Chinese: the state and the reason', async () => {
    const { objects, views } = machines();
    const table = renderTable(views, okAnswer(objects), 'zh-CN');
    await screen.findByRole('link', { name: 'demo-md-0-abc12-m1' }, SLOW);
    expect(within(rowOf(table, 'demo-md-0-abc12-m1')).getByText('就绪')).toBeTruthy();
    expect(within(rowOf(table, 'demo-md-0-abc12-m3')).getByText('排空中')).toBeTruthy();
    cleanup();
    renderTable(views, { status: 'forbidden', secret: SECRET, message: 'x' }, 'zh-CN');
    expect(await screen.findByRole('img', { name: /您无权读取 Secret/ }, SLOW)).toBeTruthy();
  });
});

describe('sorting by a column’s header (issue 26 item 8)', () => {
  it('marks the sorted column with aria-sort, and asks for a column’s order on a click', async () => {
    const { objects, views } = machines();
    const asked: MachineSortKey[] = [];
    const table = renderTable(views, okAnswer(objects), 'en', { key: 'age', dir: 'desc' }, (k) => {
      asked.push(k);
    });
    await screen.findByRole('link', { name: 'demo-md-0-abc12-m1' }, SLOW);
    const header = (name: string) => within(table).getByRole('columnheader', { name });
    expect(header('Age').getAttribute('aria-sort')).toBe('descending');
    expect(header('Name').getAttribute('aria-sort')).toBeNull();
    // Pool, kubelet and conditions do not sort: no button in their headers.
    expect(within(header('Pool')).queryByRole('button')).toBeNull();
    for (const name of ['Name', 'Phase', 'Node', 'IP', 'Version', 'Age'])
      fireEvent.click(within(header(name)).getByRole('button'));
    expect(asked).toEqual(['name', 'phase', 'node', 'ip', 'version', 'age']);
  });
});
