// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { MemoryRouter, Route } from '../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../test/api';
import { demoClusterViews } from '../../test/fixtures';
import { renderInApp } from '../../test/render';
import { ClusterLayout } from './ClusterLayout';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderAt = (path: string) =>
  renderInApp(
    <MemoryRouter initialEntries={[path]}>
      <Route path="/clusters/:namespace/:cluster/node-pools">
        <ClusterLayout>
          <button type="button">Add Worker Node Pool</button>
        </ClusterLayout>
      </Route>
    </MemoryRouter>,
  );

describe('a cluster page', () => {
  it('says that an unknown cluster does not exist, with no tabs and no actions', async () => {
    stubApi({ '/clusters': { items: [demoClusterViews().cluster] } });
    renderAt('/clusters/cpaas-system/no-such-cluster/node-pools');
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /Cluster no-such-cluster does not exist in namespace cpaas-system/,
    );
    expect(screen.queryAllByRole('tab')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Add Worker Node Pool' })).toBeNull();
  });

  it('shows a known cluster’s tabs and page', async () => {
    stubApi({ '/clusters': { items: [demoClusterViews().cluster] } });
    // The page's live stream: opened, never answering.
    vi.stubGlobal(
      'EventSource',
      class {
        static CLOSED = 2;
        readyState = 0;
        addEventListener = vi.fn();
        close = vi.fn();
      },
    );
    renderAt('/clusters/cpaas-system/demo/node-pools');
    expect(await screen.findByRole('button', { name: 'Add Worker Node Pool' })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Node Pools',
      'Nodes',
      'IP Pools',
      'Object Tree',
    ]);
  });
});
