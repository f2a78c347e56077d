// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { lazy, Suspense, type ComponentType } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BrowserRouter,
  Link,
  MemoryRouter,
  Navigate,
  parseLocation,
  Route,
  Switch,
  useLocation,
  useMatch,
  useNavigate,
  useParams,
  useSearchParams,
  type AppLocation,
} from './routing';

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

function Where() {
  const { pathname, search } = useLocation();
  return <output aria-label="where">{pathname + search}</output>;
}

/** A screen whose code arrives when the test says so. */
function deferredScreen(text: string) {
  let arrive: () => void = () => undefined;
  const loaded = new Promise<{ default: ComponentType }>((resolve) => {
    arrive = () => {
      resolve({ default: () => <p>{text}</p> });
    };
  });
  return { Screen: lazy(() => loaded), arrive };
}

describe('routing (issue 28: wouter, and the address held as react-router held it)', () => {
  it('splits an address into path and query', () => {
    expect(parseLocation('/a/b?c=d&e=f')).toEqual({ pathname: '/a/b', search: '?c=d&e=f' });
    expect(parseLocation('/a?')).toEqual({ pathname: '/a', search: '' });
    expect(parseLocation('')).toEqual({ pathname: '/', search: '' });
  });

  it("gives a route its pattern's params and follows links (the first matching route wins)", async () => {
    function Pool() {
      const { namespace, pool } = useParams();
      return <p>{`pool ${String(pool)} in ${String(namespace)}`}</p>;
    }
    render(
      <MemoryRouter initialEntries={['/clusters/ns/c/node-pools']}>
        <Link to="/clusters/ns/c/node-pools/new">add</Link>
        <Link to="/clusters/ns/c/node-pools/md-0?x=1">md-0</Link>
        <Switch>
          <Route path="/clusters/:namespace/:cluster/node-pools/new">
            <p>new pool</p>
          </Route>
          <Route path="/clusters/:namespace/:cluster/node-pools/:pool">
            <Pool />
          </Route>
          <Route>
            <p>elsewhere</p>
          </Route>
        </Switch>
        <Where />
      </MemoryRouter>,
    );
    expect(screen.getByText('elsewhere')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'md-0' }).getAttribute('href')).toBe(
      '/clusters/ns/c/node-pools/md-0?x=1',
    );
    fireEvent.click(screen.getByRole('link', { name: 'add' }));
    expect(await screen.findByText('new pool')).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'md-0' }));
    expect(await screen.findByText('pool md-0 in ns')).toBeTruthy();
    expect(screen.getByLabelText('where').textContent).toBe('/clusters/ns/c/node-pools/md-0?x=1');
  });

  it('sets the query and keeps the path; a function gets a copy of the current params', async () => {
    let set: ReturnType<typeof useSearchParams>[1] | undefined;
    let seen: URLSearchParams | undefined;
    function Filters() {
      const [params, setParams] = useSearchParams();
      set = setParams;
      seen = params;
      return <p>{`set=${params.get('set') ?? ''}`}</p>;
    }
    render(
      <MemoryRouter initialEntries={['/clusters/ns/c/nodes?set=ms-1&q=a']}>
        <Filters />
        <Where />
      </MemoryRouter>,
    );
    expect(screen.getByText('set=ms-1')).toBeTruthy();
    const before = seen;
    act(() => {
      set?.((p) => {
        p.delete('set');
        return p;
      });
    });
    expect(await screen.findByText('set=')).toBeTruthy();
    expect(before?.get('set')).toBe('ms-1');
    expect(screen.getByLabelText('where').textContent).toBe('/clusters/ns/c/nodes?q=a');
    act(() => {
      set?.(new URLSearchParams());
    });
    expect(screen.getByLabelText('where').textContent).toBe('/clusters/ns/c/nodes');
  });

  it('matches a pattern anywhere in the tree (useMatch), with or without the rest of the path', () => {
    function Cluster() {
      const match = useMatch('/clusters/:namespace/:cluster/*?');
      return <p>{match ? `${String(match.namespace)}/${String(match.cluster)}` : 'none'}</p>;
    }
    for (const [at, text] of [
      ['/clusters/ns/c', 'ns/c'],
      ['/clusters/ns/c/nodes/m-1/conditions', 'ns/c'],
      ['/', 'none'],
      ['/clusters/ns', 'none'],
    ] as const) {
      render(
        <MemoryRouter initialEntries={[at]}>
          <Cluster />
        </MemoryRouter>,
      );
      expect(screen.getByText(text), at).toBeTruthy();
      cleanup();
    }
  });

  it('keeps the screen on view while the next one’s code loads (a navigation is a transition)', async () => {
    const next = deferredScreen('the nodes tab');
    render(
      <MemoryRouter initialEntries={['/pools']}>
        <Link to="/nodes">Nodes</Link>
        <Suspense fallback={<p>loading…</p>}>
          <Switch>
            <Route path="/pools">
              <p>the pools tab</p>
            </Route>
            <Route path="/nodes">
              <next.Screen />
            </Route>
          </Switch>
        </Suspense>
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'Nodes' }));
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    // Not a spinner over the page: the old tab stays until the new one can render.
    expect(screen.getByText('the pools tab')).toBeTruthy();
    expect(screen.queryByText('loading…')).toBeNull();
    await act(async () => {
      next.arrive();
      await Promise.resolve();
    });
    expect(await screen.findByText('the nodes tab')).toBeTruthy();
    expect(screen.queryByText('the pools tab')).toBeNull();
  });

  it('the browser router: pushes and replaces history entries, follows Back, and tells each address once', async () => {
    window.history.replaceState(null, '', '/start?x=1');
    const seen: AppLocation[] = [];
    let navigate: ReturnType<typeof useNavigate> | undefined;
    function Grab() {
      navigate = useNavigate();
      return null;
    }
    render(
      <BrowserRouter
        onLocation={(l) => {
          seen.push(l);
        }}
      >
        <Grab />
        <Where />
      </BrowserRouter>,
    );
    expect(screen.getByLabelText('where').textContent).toBe('/start?x=1');
    const length = window.history.length;
    act(() => {
      navigate?.('/clusters/ns/c/nodes');
    });
    expect(await screen.findByText('/clusters/ns/c/nodes')).toBeTruthy();
    expect(window.location.pathname).toBe('/clusters/ns/c/nodes');
    expect(window.history.length).toBe(length + 1);
    act(() => {
      navigate?.('/clusters/ns/c/tree?grouping=false', { replace: true });
    });
    expect(await screen.findByText('/clusters/ns/c/tree?grouping=false')).toBeTruthy();
    expect(window.history.length).toBe(length + 1);
    // Back, as the browser does it: the address changes, then popstate.
    act(() => {
      window.history.replaceState(null, '', '/start?x=1');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(await screen.findByText('/start?x=1')).toBeTruthy();
    expect(seen.map((l) => l.pathname + l.search)).toEqual([
      '/start?x=1',
      '/clusters/ns/c/nodes',
      '/clusters/ns/c/tree?grouping=false',
      '/start?x=1',
    ]);
  });

  it('Navigate goes to its address, replacing the entry when asked', async () => {
    const spy = vi.spyOn(window.history, 'replaceState');
    window.history.replaceState(null, '', '/old');
    spy.mockClear();
    render(
      <BrowserRouter>
        <Switch>
          <Route path="/old">
            <Navigate to="/new?next=%2Fa" replace />
          </Route>
          <Route path="/new">
            <p>new</p>
          </Route>
        </Switch>
        <Where />
      </BrowserRouter>,
    );
    expect(await screen.findByText('new')).toBeTruthy();
    expect(window.location.pathname + window.location.search).toBe('/new?next=%2Fa');
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });
});
