// @vitest-environment happy-dom
import { machineView, nodeViewsOf, type ClusterNodesView } from '@dcs/domain';
import { aMachine, aNode } from '@dcs/domain/testing';
import { cleanup, screen, within } from '@testing-library/react';
import { MemoryRouter, Route } from '../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '../../i18n/locale';
import { stubApi } from '../../test/api';
import { NOW } from '../../test/fixtures';
import { renderInApp } from '../../test/render';
import { MachineRoute } from './MachineRoute';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/**
 * Issue 12: the machine page shows the workload cluster's Node next to the Machine's conditions
 * (the same conditions table, problems first) with its taints, or why it cannot.
 */

const NAME = 'demo-md-0-abc12-m1';
/** Rendering is slow on a loaded machine: wait on the condition, generously. */
const SLOW = { timeout: 15_000 };
const SECRET = 'cpaas-system/demo-kubeconfig';
const machine = aMachine({ metadata: { name: NAME } });

function renderPage(nodes: ClusterNodesView, locale: Locale = 'en', m = machine) {
  stubApi({
    '/clusters/cpaas-system/demo/machines': { items: [machineView(m, undefined, NOW)] },
    '/clusters/cpaas-system/demo/nodes': nodes,
  });
  renderInApp(
    <MemoryRouter initialEntries={[`/clusters/cpaas-system/demo/nodes/${NAME}`]}>
      <Route path="/clusters/:namespace/:cluster/nodes/:machine">
        <MachineRoute />
      </Route>
    </MemoryRouter>,
    { locale },
  );
}

const pressured = aNode(NAME, {
  spec: {
    unschedulable: true,
    taints: [
      { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' },
    ],
  },
  status: {
    conditions: [
      { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory' },
      { type: 'DiskPressure', status: 'True', reason: 'KubeletHasDiskPressure' },
      { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID' },
      { type: 'NetworkUnavailable', status: 'False', reason: 'CalicoIsUp' },
      { type: 'Ready', status: 'True', reason: 'KubeletReady' },
    ],
    nodeInfo: { kubeletVersion: 'v1.33.4' },
  },
});

describe('the machine page’s Node (issue 12)', () => {
  it('shows the Node’s state, kubelet version, conditions (problems first) and taints beside the Machine’s', async () => {
    renderPage({ status: 'ok', secret: SECRET, nodes: nodeViewsOf([pressured], [machine]) });
    const conditions = await screen.findByRole(
      'table',
      { name: `Conditions of Node ${NAME}` },
      SLOW,
    );
    // The Machine's own conditions are on the same page, in the same table component.
    expect(screen.getByRole('table', { name: `Conditions of Machine ${NAME}` })).toBeTruthy();
    const rows = within(conditions).getAllByRole('row').slice(1);
    // DiskPressure True is the one problem and comes first; a pressure that is False is healthy.
    expect(rows.map((r) => r.getAttribute('data-tone'))).toEqual([
      'warning',
      'ok',
      'ok',
      'ok',
      'ok',
    ]);
    expect(rows[0]?.textContent).toContain('DiskPressure');
    expect(rows[0]?.getAttribute('data-anchor')).toBe(`Node/${NAME}/DiskPressure`);
    const section = screen.getByRole('region', { name: 'Node in the workload cluster' });
    expect(within(section).getByText('Cordoned')).toBeTruthy();
    expect(within(section).getByText('v1.33.4')).toBeTruthy();
    const taints = screen.getByRole('table', { name: `Taints of Node ${NAME}` });
    expect(
      within(taints)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.textContent),
    ).toEqual([
      'node.kubernetes.io/unschedulable—NoSchedule',
      'node.kubernetes.io/disk-pressure—NoSchedule',
    ]);
  });

  it('gives the viewer the reason instead of the Node', async () => {
    renderPage({
      status: 'forbidden',
      secret: SECRET,
      message: `you may not read secret ${SECRET}`,
    });
    const section = await screen.findByRole(
      'region',
      { name: 'Node in the workload cluster' },
      SLOW,
    );
    expect(
      (await within(section).findByText(/you may not read secret/, {}, SLOW)).textContent,
    ).toBe(
      `Node states are not shown: you may not read secret ${SECRET} (the workload cluster’s kubeconfig).`,
    );
    expect(screen.queryByRole('table', { name: /Conditions of Node/ })).toBeNull();
  });

  it('says the Node is gone while the machine is deleted, in Chinese', async () => {
    const deleting = aMachine({
      metadata: { name: NAME, deletionTimestamp: '2026-01-01T00:50:00Z' },
    });
    renderPage({ status: 'ok', secret: SECRET, nodes: [] }, 'zh-CN', deleting);
    expect(
      await screen.findByText(
        `节点 ${NAME} 已从工作负载集群中删除：该 machine 正在删除。`,
        {},
        SLOW,
      ),
    ).toBeTruthy();
  });

  it('a Running machine whose Node is NotReady: the top of the page says so, with the kubelet checks (the row badge’s decision)', async () => {
    const notReady = aNode(NAME, {
      status: { conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletNotReady' }] },
    });
    renderPage({ status: 'ok', secret: SECRET, nodes: nodeViewsOf([notReady], [machine]) });
    const panel = await screen.findByRole('region', { name: 'Diagnosis' }, SLOW);
    expect(panel.getAttribute('data-node-problem')).toBe('NotReady');
    expect(within(panel).getByText('Diagnosis: Node NotReady')).toBeTruthy();
    expect(within(panel).getByText(/Node demo-md-0-abc12-m1 is not Ready/)).toBeTruthy();
    expect(within(panel).getByText(/read the kubelet and bootstrap logs/)).toBeTruthy();
  });

  it('a cordoned Node: the panel gives the command that lifts it and no checklist, in Chinese', async () => {
    const cordoned = aNode(NAME, { spec: { unschedulable: true } });
    renderPage(
      { status: 'ok', secret: SECRET, nodes: nodeViewsOf([cordoned], [machine]) },
      'zh-CN',
    );
    const panel = await screen.findByRole('region', { name: '诊断' }, SLOW);
    expect(panel.getAttribute('data-node-problem')).toBe('Cordoned');
    expect(within(panel).getByText(`kubectl uncordon ${NAME}`, { exact: false })).toBeTruthy();
    expect(within(panel).queryByRole('list')).toBeNull();
  });

  it('a healthy Node, or Nodes the user may not read: no panel', async () => {
    renderPage({ status: 'ok', secret: SECRET, nodes: nodeViewsOf([aNode(NAME)], [machine]) });
    await screen.findByRole('table', { name: `Conditions of Node ${NAME}` }, SLOW);
    expect(screen.queryByRole('region', { name: 'Diagnosis' })).toBeNull();
    cleanup();
    renderPage({
      status: 'forbidden',
      secret: SECRET,
      message: `you may not read secret ${SECRET}`,
    });
    await screen.findByText(/you may not read secret/, {}, SLOW);
    expect(screen.queryByRole('region', { name: 'Diagnosis' })).toBeNull();
  });
});
