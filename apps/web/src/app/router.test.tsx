// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clusterContextQueryOptions } from '../api/get-cluster-context';
import { clustersQueryOptions } from '../features/clusters/api/get-clusters';
import { nodePoolsQueryOptions } from '../features/node-pools/api/get-node-pools';
import { sessionQueryOptions } from '../features/session/api/get-session';
import { MemoryRouter, useLocation, useNavigate } from '../lib/routing';
import { stubApi } from '../test/api';
import { renderInApp } from '../test/render';
import { queryClient } from './query-client';
import { AppRoutes, matchScreen, prefetchRoute } from './router';
import { RouteErrorBoundary } from './routes/RouteError';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const signedIn = {
  authenticated: true,
  mode: 'token',
  user: { username: 'alice', groups: [], confirmed: true },
  csrfToken: 'c',
  epoch: 'e',
};

describe('the console’s routes (issue 28: the same screens after the router change)', () => {
  it('matches every screen’s address, a static segment before a name, and nothing else', () => {
    const at = (path: string) => {
      const m = matchScreen(path);
      return m && { pattern: m.screen.pattern, params: m.params };
    };
    expect(at('/')?.pattern).toBe('/');
    expect(at('/clusters/ns/c')?.pattern).toBe('/clusters/:namespace/:cluster');
    expect(at('/clusters/ns/c/node-pools/new')).toEqual({
      pattern: '/clusters/:namespace/:cluster/node-pools/new',
      params: { namespace: 'ns', cluster: 'c' },
    });
    expect(at('/clusters/ns/c/node-pools/md-1.2/conditions')).toEqual({
      pattern: '/clusters/:namespace/:cluster/node-pools/:pool/conditions',
      params: { namespace: 'ns', cluster: 'c', pool: 'md-1.2' },
    });
    expect(at('/clusters/ns/c/nodes/m-1/')?.pattern).toBe(
      '/clusters/:namespace/:cluster/nodes/:machine',
    );
    expect(at('/clusters/ns/c/ip-pools/new')?.pattern).toBe(
      '/clusters/:namespace/:cluster/ip-pools/new',
    );
    expect(at('/clusters/ns/c/tree')?.pattern).toBe('/clusters/:namespace/:cluster/tree');
    for (const none of ['/clusters', '/clusters/ns', '/clusters/ns/c/bogus', '/nodes', '/x/y'])
      expect(at(none), none).toBeUndefined();
  });

  it('starts a cluster screen’s data with its code, before it renders (as the loaders did)', () => {
    const query = vi.spyOn(queryClient, 'query').mockResolvedValue(undefined);
    prefetchRoute({ pathname: '/clusters/cpaas-system/demo/nodes', search: '' });
    expect(query.mock.calls.map(([o]) => o.queryKey)).toEqual([
      sessionQueryOptions().queryKey,
      clustersQueryOptions().queryKey,
      nodePoolsQueryOptions('cpaas-system', 'demo').queryKey,
      clusterContextQueryOptions('cpaas-system', 'demo').queryKey,
    ]);
    query.mockClear();
    prefetchRoute({ pathname: '/', search: '' });
    expect(query.mock.calls.map(([o]) => o.queryKey)).toEqual([sessionQueryOptions().queryKey]);
    query.mockClear();
    prefetchRoute({ pathname: '/sign-in', search: '?next=%2F' });
    expect(query).not.toHaveBeenCalled();
  });

  it('shows "not found" in the app’s frame for an address of no screen', async () => {
    stubApi({ '/session': signedIn, '/clusters': { items: [] } });
    renderInApp(
      <MemoryRouter initialEntries={['/clusters/ns/c/bogus']}>
        <AppRoutes />
      </MemoryRouter>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'There is nothing at this address.',
    );
    expect(screen.getByRole('link', { name: 'Skip to content' })).toBeTruthy();
  });

  it('sends a cluster’s address to its Node Pools tab', async () => {
    stubApi({ '/session': signedIn, '/clusters': { items: [] } });
    function Where() {
      return <output aria-label="where">{useLocation().pathname}</output>;
    }
    renderInApp(
      <MemoryRouter initialEntries={['/clusters/cpaas-system/demo']}>
        <AppRoutes />
        <Where />
      </MemoryRouter>,
    );
    expect(
      await screen.findByText('/clusters/cpaas-system/demo/node-pools', { selector: 'output' }),
    ).toBeTruthy();
  });

  it('a screen that throws shows its error instead of the frame, until the address changes', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let go: ((to: string) => void) | undefined;
    function Broken() {
      const [broken] = useState(true);
      if (broken) throw new Error('the screen broke');
      return null;
    }
    function Screens() {
      const { pathname } = useLocation();
      go = useNavigate();
      return (
        <RouteErrorBoundary pathname={pathname}>
          {pathname === '/broken' ? <Broken /> : <p>a working screen</p>}
        </RouteErrorBoundary>
      );
    }
    renderInApp(
      <MemoryRouter initialEntries={['/broken']}>
        <Screens />
      </MemoryRouter>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain('the screen broke');
    go?.('/elsewhere');
    expect(await screen.findByText('a working screen')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
