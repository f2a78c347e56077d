// @vitest-environment happy-dom
import { machineView, type MachineView, type StreamEvent } from '@dcs/domain';
import { aMachine } from '@dcs/domain/testing';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { createElement, type ComponentProps } from 'react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Mui from '@mui/material';
import { applyChanges } from '../../../lib/stream/apply-changes';
import { collectChanges } from '../../../lib/stream/reducer';
import { contextWire, stubApi } from '../../../test/api';
import { NOW } from '../../../test/fixtures';
import { withLaidOutElements } from '../../../test/layout';
import { renderInApp } from '../../../test/render';
import { NodesTab } from './NodesTab';

/**
 * Issue 14: the Nodes tab under a stream of machine events (200/s on 20,000 machines in the
 * benchmark). A batch re-renders the tab, and what it costs must follow what changed: the
 * filter bar (its pool select holds one option per pool), the table's header and every row
 * whose machine did not change are skipped. Counted by wrapping MUI's TextField and Checkbox
 * (the filter bar has two TextFields; the header and each row one Checkbox). The clock that ages
 * the rows re-renders the age cells alone.
 */

const renders = vi.hoisted(() => ({ textField: 0, checkbox: 0 }));

vi.mock('@mui/material', async (importOriginal) => {
  const mui = await importOriginal<typeof Mui>();
  return {
    ...mui,
    TextField: (props: ComponentProps<typeof mui.TextField>) => {
      renders.textField++;
      return createElement(mui.TextField, props);
    },
    Checkbox: (props: ComponentProps<typeof mui.Checkbox>) => {
      renders.checkbox++;
      return createElement(mui.Checkbox, props);
    },
  };
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

withLaidOutElements();

const SLOW = { timeout: 15_000 };
const POOLS = ['demo-md-0', 'demo-md-1', 'demo-md-2'];

function aPoolMachine(pool: string, n: number, phase = 'Running'): MachineView {
  const name = `${pool}-abc12-m${String(n)}`;
  return machineView(
    aMachine({
      metadata: {
        name,
        labels: {
          'cluster.x-k8s.io/deployment-name': pool,
          'cluster.x-k8s.io/set-name': `${pool}-abc12`,
        },
      },
      status: { phase },
    }),
    undefined,
    NOW,
  );
}

async function renderTab() {
  const machines = POOLS.flatMap((pool) => [1, 2, 3, 4].map((n) => aPoolMachine(pool, n)));
  stubApi({
    '/clusters/cpaas-system/demo/machines': { items: machines },
    '/clusters/cpaas-system/demo/context': contextWire(),
  });
  const { client } = renderInApp(
    <MemoryRouter>
      <NodesTab namespace="cpaas-system" cluster="demo" onDeleteSelected={() => undefined} />
    </MemoryRouter>,
  );
  const table = await screen.findByRole('table', { name: 'Machines of demo' }, SLOW);
  await screen.findByText('12 of 12 machines, 0 selected', undefined, SLOW);
  // What settles after the first screen, first: the Nodes' answer (a 404 here: the reason
  // at the Node column's header) and the access reviews (the delete button's reason).
  await screen.findByTestId('nodes-unavailable', undefined, SLOW);
  await waitFor(() => {
    expect(
      screen
        .getByRole('button', { name: 'Delete selected machines' })
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

const upsert = (view: MachineView): StreamEvent => ({
  type: 'upsert',
  kind: 'machine',
  id: view.id,
  view,
});

const phaseOf = (table: HTMLElement, name: string) =>
  within(table).getByRole('link', { name }).closest('tr')?.textContent ?? '';

describe('the Nodes tab under stream events re-renders only what changed (issue 14)', () => {
  it('a batch that changes one machine re-renders its row alone: not the filter bar, not the header, not the other rows', async () => {
    const { table, apply } = await renderTab();
    renders.textField = 0;
    renders.checkbox = 0;

    apply([upsert(aPoolMachine('demo-md-1', 2, 'Provisioning'))]);
    await waitFor(() => {
      expect(phaseOf(table, 'demo-md-1-abc12-m2')).toContain('Provisioning');
    }, SLOW);

    expect(renders.textField).toBe(0);
    expect(renders.checkbox).toBe(1);
  });

  it('a batch that adds a pool’s machine updates the count and the pool select', async () => {
    const { table, apply } = await renderTab();
    apply([upsert(aPoolMachine('demo-md-3', 1))]);
    await screen.findByText('13 of 13 machines, 0 selected', undefined, SLOW);
    expect(within(table).getByRole('link', { name: 'demo-md-3-abc12-m1' })).toBeDefined();
    act(() => {
      within(screen.getByRole('search')).getByRole('combobox', { name: 'Pool' }).focus();
    });
    const select = within(screen.getByRole('search')).getByRole('combobox', { name: 'Pool' });
    act(() => {
      select.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, button: 0 }));
    });
    const options = await screen.findAllByRole('option', undefined, SLOW);
    expect(options.map((o) => o.textContent)).toEqual(['All pools', ...POOLS, 'demo-md-3']);
  });

  it('a tick of the clock re-renders the age cells, not the rows', async () => {
    // Intervals and Date are faked (and follow real time, so the waits work): the test moves the
    // clock 60 s at once. The machines were created at 2026-01-01T00:00:00Z.
    vi.useFakeTimers({
      toFake: ['setInterval', 'clearInterval', 'Date'],
      now: Date.parse('2026-01-01T00:10:00Z'),
      shouldAdvanceTime: true,
    });
    const { table } = await renderTab();
    const ageOf = (name: string) =>
      within(table).getByRole('link', { name }).closest('tr')?.querySelectorAll('td')[8]
        ?.textContent;
    expect(ageOf('demo-md-0-abc12-m1')).toBe('10m');
    renders.checkbox = 0;
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    await waitFor(() => {
      expect(ageOf('demo-md-0-abc12-m1')).toBe('11m');
    }, SLOW);
    expect(ageOf('demo-md-2-abc12-m4')).toBe('11m');
    expect(renders.checkbox).toBe(0);
  });
});
