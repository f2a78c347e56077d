// @vitest-environment happy-dom
import {
  clusterNodeSummaries,
  machineView,
  nodeViewsOf,
  type ClusterNodeSummaries,
  type Machine,
  type StreamEvent,
} from '@dcs/domain';
import { aMachine, aNode } from '@dcs/domain/testing';
import { notifyManager } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Profiler } from 'react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyChanges } from '../../../lib/stream/apply-changes';
import { collectChanges } from '../../../lib/stream/reducer';
import { queryKeys } from '../../../lib/query-keys';
import { contextWire, stubApi } from '../../../test/api';
import { NOW } from '../../../test/fixtures';
import { withLaidOutElements } from '../../../test/layout';
import { renderInApp } from '../../../test/render';
import { NodesTab } from './NodesTab';

/**
 * Issue 14: the Nodes tab renders a stream batch's rows, and a filter's result, in the background
 * (`useDeferredValue`): the urgent render (the cache's update, a key typed in the filter) is
 * committed first, without the rows, and the rows follow in a render React may interrupt. And the
 * rows join each machine with its Node as of the same moment (machines and Nodes both deferred).
 *
 * Observed commit by commit: a Profiler around the tab reads the DOM at each commit (its onRender
 * runs in the commit, after the DOM is written), so a state shown for one commit only is seen.
 */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

withLaidOutElements();

const SLOW = { timeout: 15_000 };
const SECRET = 'cpaas-system/demo-kubeconfig';
const NAMES = [1, 2, 3, 4].map((n) => `demo-md-0-abc12-m${String(n)}`);

function aPoolMachine(name: string, o: { phase?: string; deleting?: boolean } = {}): Machine {
  return aMachine({
    metadata: {
      name,
      labels: {
        'cluster.x-k8s.io/deployment-name': 'demo-md-0',
        'cluster.x-k8s.io/set-name': 'demo-md-0-abc12',
      },
      ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:50:00Z' } : {}),
    },
    status: {
      phase: o.phase ?? 'Running',
      // Cluster API drains a deleting machine's Node: it cordons it, then evicts its pods.
      ...(o.deleting
        ? {
            conditions: [
              {
                type: 'DrainingSucceeded',
                status: 'False',
                reason: 'Draining',
                severity: 'Info',
                lastTransitionTime: '2026-01-01T00:50:00Z',
              },
            ],
          }
        : {}),
    },
  });
}

/** The BFF's `…/nodes?fields=summary`: each machine's Node (named as the machine), `cordoned` ones unschedulable. */
function nodesAnswer(machines: readonly Machine[], cordoned: readonly string[] = []) {
  const nodes = NAMES.map((n) =>
    aNode(n, cordoned.includes(n) ? { spec: { unschedulable: true } } : {}),
  );
  return clusterNodeSummaries({
    status: 'ok',
    secret: SECRET,
    nodes: nodeViewsOf(nodes, machines),
  });
}

interface Commit {
  /** The filter field's value. */
  filter: string;
  /** The machine names of the rows in the DOM. */
  rows: string[];
  /** Per row: its text (the phase is in it), its Node state and `+problem` with a Node problem badge. */
  row: Record<string, string>;
}

async function renderTab() {
  const machines = NAMES.map((n) => aPoolMachine(n));
  // Answered as it is now (the tab refetches the Nodes when a machine starts deleting).
  const routes: Record<string, unknown> = {
    '/clusters/cpaas-system/demo/machines': {
      items: machines.map((m) => machineView(m, undefined, NOW)),
    },
    '/clusters/cpaas-system/demo/context': contextWire(),
    '/clusters/cpaas-system/demo/nodes': nodesAnswer(machines),
  };
  stubApi(routes);
  const commits: Commit[] = [];
  const snapshot = (): Commit => {
    const table = document.querySelector('table');
    const rows = [...(table?.querySelectorAll('tbody tr') ?? [])].flatMap((tr) => {
      const name = NAMES.find((n) =>
        [...tr.querySelectorAll('a')].some((a) => a.textContent === n),
      );
      return name ? [[name, tr] as const] : [];
    });
    return {
      filter: document.querySelector<HTMLInputElement>('[role=search] input')?.value ?? '',
      rows: rows.map(([n]) => n),
      row: Object.fromEntries(
        rows.map(([n, tr]) => [
          n,
          `${tr.textContent} ${tr.querySelector('[data-node-state]')?.getAttribute('data-node-state') ?? 'none'}${
            tr.querySelector('[data-row-problem="node"]') ? '+problem' : ''
          }`,
        ]),
      ),
    };
  };
  const { client } = renderInApp(
    <MemoryRouter>
      <Profiler
        id="nodes-tab"
        onRender={() => {
          commits.push(snapshot());
        }}
      >
        <NodesTab namespace="cpaas-system" cluster="demo" onDeleteSelected={() => undefined} />
      </Profiler>
    </MemoryRouter>,
  );
  const table = await screen.findByRole('table', { name: 'Machines of demo' }, SLOW);
  await screen.findByText('4 of 4 machines, 0 selected', undefined, SLOW);
  await waitFor(() => {
    expect(table.querySelectorAll('[data-node-state="Ready"]')).toHaveLength(4);
  }, SLOW);
  // The access reviews settle the delete button's reason: the last update of the first screen.
  await waitFor(() => {
    expect(
      screen
        .getByRole('button', { name: 'Delete selected machines' })
        .getAttribute('aria-describedby'),
    ).toBeTruthy();
  }, SLOW);
  const events = (changed: readonly Machine[]): StreamEvent[] =>
    changed.map((m) => {
      const view = machineView(m, undefined, NOW);
      return { type: 'upsert', kind: 'machine', id: view.id, view };
    });
  return {
    table,
    routes,
    client,
    /** The commits from now on. */
    commits: () => commits.splice(0),
    /** A stream batch, as the stream applies it to the cache. */
    apply: (changed: readonly Machine[]) => {
      act(() => {
        applyChanges(client, 'cpaas-system', 'demo', collectChanges(events(changed)));
      });
    },
    events,
  };
}

const phaseOf = (table: HTMLElement, name: string) =>
  within(table).getByRole('link', { name }).closest('tr')?.textContent ?? '';

describe('the Nodes tab renders rows in the background (issue 14)', () => {
  it('a stream batch is committed first without its rows; the changed row follows in a later commit', async () => {
    const { table, apply, commits } = await renderTab();
    commits();
    apply([aPoolMachine(NAMES[1] ?? '', { phase: 'Provisioning' })]);
    await waitFor(() => {
      expect(phaseOf(table, NAMES[1] ?? '')).toContain('Provisioning');
    }, SLOW);
    const seen = commits().map((c) => c.row[NAMES[1] ?? ''] ?? '');
    // The cache's update renders the tab at once (react-query's store is synchronous); with the
    // list deferred, that commit still shows the row as it was, and its new phase comes in a
    // render of its own, which React time-slices and interrupts for anything urgent.
    expect(seen.length, seen.join(' | ')).toBeGreaterThanOrEqual(2);
    expect(seen[0]).toContain('Running');
    expect(seen[0]).not.toContain('Provisioning');
    expect(seen.at(-1)).toContain('Provisioning');
  });

  it('a key typed in the filter is committed (the field shows it) before the rows are filtered', async () => {
    const { commits } = await renderTab();
    commits();
    const field = within(screen.getByRole('search')).getByRole('textbox', {
      name: 'Filter by name, node, IP, phase',
    });
    fireEvent.change(field, { target: { value: 'm3' } });
    await screen.findByText('1 of 4 machines, 0 selected', undefined, SLOW);
    const seen = commits();
    expect(seen[0]?.filter).toBe('m3');
    expect(seen[0]?.rows).toEqual(NAMES);
    expect(seen.at(-1)?.rows).toEqual([NAMES[2]]);
  });

  it('never pairs a machine’s view from before its deletion with its Node cordoned by the drain (no Node problem for a moment)', async () => {
    const { table, routes, client, events, commits } = await renderTab();
    const victim = NAMES[2] ?? '';
    const after = NAMES.map((n) => aPoolMachine(n, { deleting: n === victim }));
    const cordoned: ClusterNodeSummaries = nodesAnswer(after, [victim]);
    routes['/clusters/cpaas-system/demo/nodes'] = cordoned;
    commits();
    // The machine's deletion (the stream) and its Node cordoned (the Nodes' answer) reach the
    // cache in the same moment: the urgent render sees both, and must show neither or both.
    act(() => {
      notifyManager.batch(() => {
        client.setQueryData(queryKeys.nodes('cpaas-system', 'demo'), cordoned);
        applyChanges(
          client,
          'cpaas-system',
          'demo',
          collectChanges(events(after.filter((m) => m.metadata.name === victim))),
        );
      });
    });
    await waitFor(() => {
      expect(
        within(table)
          .getByRole('link', { name: victim })
          .closest('tr')
          ?.querySelector('[data-node-state]')
          ?.getAttribute('data-node-state'),
      ).toBe('Draining');
    }, SLOW);
    const seen = commits().map((c) => c.row[victim] ?? '');
    expect(seen.length).toBeGreaterThan(0);
    expect(
      seen.filter((s) => s.endsWith('+problem')),
      seen.join(' | '),
    ).toEqual([]);
    expect(
      seen.every((s) => / (Ready|Draining)$/.test(s)),
      seen.join(' | '),
    ).toBe(true);
  });
});
