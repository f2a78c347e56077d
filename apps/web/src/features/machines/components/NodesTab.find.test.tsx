// @vitest-environment happy-dom
import { machineView, type Machine } from '@dcs/domain';
import { aMachine } from '@dcs/domain/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from '../../../lib/routing';
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
 * Issue 26 item 8: the Nodes tab filtered by phase and condition, sorted by a column, all of it
 * in the address; the address opens the same rows in a new page.
 */

const SLOW = { timeout: 15_000 };
const T = '2026-01-01T00:00:00Z';
const condition = (type: string, status: 'True' | 'False') => ({
  type,
  status,
  lastTransitionTime: T,
  ...(status === 'False' ? { severity: 'Error' as const, reason: 'Broken' } : {}),
});
function aMachineOf(name: string, phase: string, ip: string, notHealthy?: string): Machine {
  return aMachine({
    metadata: { name },
    status: {
      phase,
      addresses: [{ type: 'InternalIP', address: ip }],
      conditions: ['Ready', 'NodeHealthy'].map((t) =>
        condition(t, t === notHealthy ? 'False' : 'True'),
      ),
    },
  });
}
const machines = [
  aMachineOf('demo-md-0-abc12-m1', 'Running', '10.0.1.11'),
  aMachineOf('demo-md-0-abc12-m2', 'Failed', '10.0.1.9', 'Ready'),
  aMachineOf('demo-md-0-abc12-m3', 'Provisioning', '10.0.1.10', 'Ready'),
  aMachineOf('demo-md-0-abc12-m4', 'Running', '10.0.1.100', 'NodeHealthy'),
];

/** The address as the tab leaves it: what a user copies. */
function Where() {
  const { pathname, search } = useLocation();
  return <output aria-label="address">{pathname + search}</output>;
}

function renderTab(at: string, locale: Locale = 'en') {
  stubApi({
    '/clusters/cpaas-system/demo/machines': {
      items: machines.map((m) => machineView(m, undefined, NOW)),
    },
    '/clusters/cpaas-system/demo/nodes': { status: 'unavailable', reason: 'NoKubeconfig' },
    '/clusters/cpaas-system/demo/context': contextWire(),
  });
  renderInApp(
    <MemoryRouter initialEntries={[at]}>
      <NodesTab namespace="cpaas-system" cluster="demo" onDeleteSelected={() => undefined} />
      <Where />
    </MemoryRouter>,
    { locale },
  );
}

const shownNames = (table: HTMLElement) =>
  within(table)
    .getAllByRole('link')
    .map((a) => a.textContent)
    .filter((n) => n.startsWith('demo-md-0-abc12-'))
    .map((n) => n.slice('demo-md-0-abc12-'.length));
const address = () => screen.getByRole('status', { name: 'address' }).textContent;

async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }, SLOW));
}

describe('finding machines in the Nodes tab (issue 26 item 8)', () => {
  it('filters by phase and condition, sorts by a header, writes it all to the address; the address opens the same rows', async () => {
    renderTab('/c/nodes?tab=1');
    const table = await screen.findByRole('table', { name: 'Machines of demo' }, SLOW);
    await waitFor(() => {
      expect(shownNames(table)).toEqual(['m1', 'm2', 'm3', 'm4']);
    }, SLOW);

    await choose('Phase', 'Running');
    fireEvent.click(await screen.findByRole('option', { name: 'Failed' }));
    fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' });
    await waitFor(() => {
      expect(shownNames(table)).toEqual(['m1', 'm2', 'm4']);
    }, SLOW);
    await choose('Condition', 'Ready not healthy');
    await waitFor(() => {
      expect(shownNames(table)).toEqual(['m2']);
    }, SLOW);
    await choose('Condition', 'Any condition');
    // IP descending: 10.0.1.100, .11, .9 (by their numbers, not as text).
    const ipHeader = within(table).getByRole('columnheader', { name: 'IP' });
    fireEvent.click(within(ipHeader).getByRole('button'));
    fireEvent.click(within(ipHeader).getByRole('button'));
    await waitFor(() => {
      expect(shownNames(table)).toEqual(['m4', 'm1', 'm2']);
    }, SLOW);
    expect(ipHeader.getAttribute('aria-sort')).toBe('descending');
    await waitFor(() => {
      expect(address()).toBe('/c/nodes?tab=1&phase=Running&phase=Failed&sort=-ip');
    }, SLOW);
    const shared = address();

    cleanup();
    renderTab(shared);
    const again = await screen.findByRole('table', { name: 'Machines of demo' }, SLOW);
    await waitFor(() => {
      expect(shownNames(again)).toEqual(['m4', 'm1', 'm2']);
    }, SLOW);
    expect(within(again).getByRole('columnheader', { name: 'IP' }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    expect(screen.getByRole('combobox', { name: 'Phase' }).textContent).toBe('Running, Failed');
  });

  it('opens a shared address with a condition and the name, node and IP fields, in Chinese', async () => {
    renderTab('/c/nodes?cond=NodeHealthy&ip=10.0.1.1&sort=-name', 'zh-CN');
    const table = await screen.findByRole('table', { name: 'demo 的 machine' }, SLOW);
    await waitFor(() => {
      expect(shownNames(table)).toEqual(['m4']);
    }, SLOW);
    expect(screen.getByRole('combobox', { name: '状态条件' }).textContent).toBe(
      'NodeHealthy 不健康',
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'IP' }), { target: { value: '' } });
    await choose('状态条件', '任意状态条件');
    await waitFor(() => {
      expect(shownNames(table)).toEqual(['m4', 'm3', 'm2', 'm1']);
    }, SLOW);
    fireEvent.change(screen.getByRole('textbox', { name: '名称' }), { target: { value: 'M3' } });
    await waitFor(() => {
      expect(shownNames(table)).toEqual(['m3']);
    }, SLOW);
    await waitFor(() => {
      expect(address()).toBe('/c/nodes?name=M3&sort=-name');
    }, SLOW);
  });

  it('ignores what it cannot read in the address, and shows the rest', async () => {
    renderTab('/c/nodes?phase=Bogus&phase=Failed&sort=-colour&__proto__=x&cond=a%20b');
    const table = await screen.findByRole('table', { name: 'Machines of demo' }, SLOW);
    await waitFor(() => {
      expect(shownNames(table)).toEqual(['m2']);
    }, SLOW);
    // The address is rewritten to what is shown; parameters that are no filter's are kept.
    await waitFor(() => {
      expect(address()).toBe('/c/nodes?__proto__=x&phase=Failed');
    }, SLOW);
  });
});
