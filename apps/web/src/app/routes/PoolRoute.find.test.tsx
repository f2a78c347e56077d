// @vitest-environment happy-dom
import { machineView, type MachineView } from '@dcs/domain';
import { aMachine } from '@dcs/domain/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, useLocation } from '../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contextWire, stubApi } from '../../test/api';
import { demoClusterViews, NOW } from '../../test/fixtures';
import { withLaidOutElements } from '../../test/layout';
import { renderInApp } from '../../test/render';
import { PoolRoute } from './PoolRoute';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

withLaidOutElements();

/**
 * Issue 26 item 8: a pool's page is the other machines table; it filters and sorts as the Nodes
 * tab does, from and into the address.
 */

const SLOW = { timeout: 15_000 };
const POOL = 'demo-md-0';
const PAGE = `/clusters/cpaas-system/demo/node-pools/${POOL}`;

function Where() {
  const { pathname, search } = useLocation();
  return <output aria-label="address">{pathname + search}</output>;
}

function renderPage(at: string) {
  const views = demoClusterViews();
  const phases = ['Running', 'Failed', 'Provisioning'];
  const machines: MachineView[] = phases.map((phase, i) =>
    machineView(
      aMachine({
        metadata: { name: `demo-md-0-abc12-m${i + 1}` },
        status: { phase, addresses: [{ type: 'InternalIP', address: `10.0.1.${9 + i}` }] },
      }),
      undefined,
      NOW,
    ),
  );
  stubApi({
    [`/clusters/cpaas-system/demo/nodepools/${POOL}/machines`]: { items: machines },
    '/clusters/cpaas-system/demo/nodepools': views.pools,
    '/clusters/cpaas-system/demo/context': contextWire(),
  });
  renderInApp(
    <MemoryRouter initialEntries={[at]}>
      <Route path="/clusters/:namespace/:cluster/node-pools/:pool">
        <PoolRoute />
      </Route>
      <Where />
    </MemoryRouter>,
  );
}

const shownNames = (table: HTMLElement) =>
  within(table)
    .getAllByRole('link', { name: /^demo-md-0-abc12-m/ })
    .map((a) => a.textContent.slice(-2));

describe('a pool’s machines, found (issue 26 item 8)', () => {
  it('opens the view of a shared address (phases, order; its pool ignored: the page’s own)', async () => {
    renderPage(`${PAGE}?phase=Failed&phase=Running&sort=-ip&pool=other`);
    const table = await screen.findByRole('table', { name: `Machines of ${POOL}` }, SLOW);
    await waitFor(() => {
      expect(shownNames(table)).toEqual(['m2', 'm1']);
    }, SLOW);
    expect(within(table).getByRole('columnheader', { name: 'IP' }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    expect(screen.getByRole('status', { name: '' }).textContent).toMatch(/^2 of 3 machines/);
  });

  it('writes a header’s order and a field to the address', async () => {
    renderPage(PAGE);
    const table = await screen.findByRole('table', { name: `Machines of ${POOL}` }, SLOW);
    await waitFor(() => {
      expect(shownNames(table)).toEqual(['m1', 'm2', 'm3']);
    }, SLOW);
    const phase = within(table).getByRole('columnheader', { name: 'Phase' });
    fireEvent.click(within(phase).getByRole('button'));
    // Provisioning, Running, Failed: the order of a machine's life.
    await waitFor(() => {
      expect(shownNames(table)).toEqual(['m3', 'm1', 'm2']);
    }, SLOW);
    fireEvent.change(screen.getByRole('textbox', { name: 'IP' }), {
      target: { value: '10.0.1.1' },
    });
    await waitFor(() => {
      expect(shownNames(table)).toEqual(['m3', 'm2']);
    }, SLOW);
    await waitFor(() => {
      expect(screen.getByRole('status', { name: 'address' }).textContent).toBe(
        `${PAGE}?ip=10.0.1.1&sort=phase`,
      );
    }, SLOW);
  });
});
