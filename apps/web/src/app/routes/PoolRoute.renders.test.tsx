// @vitest-environment happy-dom
import type { MachineView, StreamEvent } from '@dcs/domain';
import { aMachine } from '@dcs/domain/testing';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createElement, type ComponentProps } from 'react';
import { MemoryRouter, Route } from '../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Mui from '@mui/material';
import { applyChanges } from '../../lib/stream/apply-changes';
import { collectChanges } from '../../lib/stream/reducer';
import { contextWire, stubApi } from '../../test/api';
import { demoClusterViews } from '../../test/fixtures';
import { withLaidOutElements } from '../../test/layout';
import { renderInApp } from '../../test/render';
import { PoolRoute } from './PoolRoute';

/**
 * Issue 14: a pool's page under a stream of machine events (200/s on a pool of 5,000 machines in
 * the benchmark, `e2e/perf/bench.ts`). A batch that changes one machine re-renders that machine's
 * row and nothing else of the page: not the pool's card, not the header of its machines, not the
 * other rows. Counted by wrapping MUI's Checkbox (the table's header and each row have one) and
 * Button (the back link, the card's actions, "Delete selected machines").
 */

const renders = vi.hoisted(() => ({ checkbox: 0, button: 0 }));

vi.mock('@mui/material', async (importOriginal) => {
  const mui = await importOriginal<typeof Mui>();
  return {
    ...mui,
    Checkbox: (props: ComponentProps<typeof mui.Checkbox>) => {
      renders.checkbox++;
      return createElement(mui.Checkbox, props);
    },
    Button: (props: ComponentProps<typeof mui.Button>) => {
      renders.button++;
      return createElement(mui.Button, props);
    },
  };
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

withLaidOutElements();

const SLOW = { timeout: 15_000 };
const POOL = 'demo-md-0';

const poolMachines = (views: readonly MachineView[]) => views.filter((m) => m.poolId === POOL);

async function renderPage() {
  const views = demoClusterViews();
  stubApi({
    [`/clusters/cpaas-system/demo/nodepools/${POOL}/machines`]: {
      items: poolMachines(views.machines),
    },
    '/clusters/cpaas-system/demo/nodepools': views.pools,
    '/clusters/cpaas-system/demo/context': contextWire(),
  });
  const { client } = renderInApp(
    <MemoryRouter initialEntries={[`/clusters/cpaas-system/demo/node-pools/${POOL}`]}>
      <Route path="/clusters/:namespace/:cluster/node-pools/:pool">
        <PoolRoute />
      </Route>
    </MemoryRouter>,
  );
  const table = await screen.findByRole('table', { name: `Machines of ${POOL}` }, SLOW);
  await waitFor(() => {
    expect(within(table).getAllByRole('link', { name: /^demo-md-0-abc12-m/ })).toHaveLength(3);
  }, SLOW);
  // What settles after the first screen: the Nodes' answer (a 404 here: the reason at the Node
  // column's header) and the access reviews (the delete button's reason).
  await screen.findByTestId('nodes-unavailable', undefined, SLOW);
  await waitFor(() => {
    expect(
      screen
        .getByRole('button', { name: 'Delete selected machines (0)' })
        .getAttribute('aria-describedby'),
    ).toBeTruthy();
  }, SLOW);
  const apply = (events: StreamEvent[]) => {
    act(() => {
      applyChanges(client, 'cpaas-system', 'demo', collectChanges(events));
    });
  };
  return { table, apply };
}

const rowOf = (table: HTMLElement, name: string) =>
  within(table).getByRole('link', { name }).closest('tr')?.textContent ?? '';

describe('a pool’s page under stream events re-renders only what changed (issue 14)', () => {
  it('a batch that changes one machine re-renders its row alone: not the card, not the header, not the other rows', async () => {
    const { table, apply } = await renderPage();
    renders.checkbox = 0;
    renders.button = 0;

    const changed = poolMachines(
      demoClusterViews((o) => {
        const m = o.machines?.[1];
        if (m?.status) m.status.phase = 'Provisioning';
      }).machines,
    )[1];
    if (!changed) throw new Error('no second machine');
    apply([{ type: 'upsert', kind: 'machine', id: changed.id, view: changed }]);
    await waitFor(() => {
      expect(rowOf(table, changed.name)).toContain('Provisioning');
    }, SLOW);

    expect(renders.checkbox).toBe(1);
    expect(renders.button).toBe(0);
  });

  it('the header’s checkbox selects the machines as they are now, after batches', async () => {
    const { table, apply } = await renderPage();
    const added = demoClusterViews((o) => {
      o.machines = [...(o.machines ?? []), aMachine({ metadata: { name: 'demo-md-0-abc12-m4' } })];
    }).machines.find((m) => m.name === 'demo-md-0-abc12-m4');
    if (!added) throw new Error('no added machine');
    apply([{ type: 'upsert', kind: 'machine', id: added.id, view: added }]);
    await waitFor(() => {
      expect(within(table).getAllByRole('link', { name: /^demo-md-0-abc12-m/ })).toHaveLength(4);
    }, SLOW);
    const [header] = within(table).getAllByRole('checkbox');
    if (!header) throw new Error('no header checkbox');
    fireEvent.click(header);
    expect(
      await screen.findByRole('button', { name: 'Delete selected machines (4)' }, SLOW),
    ).toBeTruthy();
  });
});
