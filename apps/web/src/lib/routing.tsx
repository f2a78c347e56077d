import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { Link, Redirect, Route, Router, Switch, useParams, useRoute } from 'wouter';

/**
 * The console's routing (issue 28: the first load). wouter matches paths, provides a route's
 * params and renders links (~2 KB, where react-router's data router was ~29 KB gzipped of the
 * first load); this module holds the address. As react-router's routers do, a navigation is a
 * transition: the screen on view stays until the next one can render (its lazy code loaded), so a
 * tab change never flashes a spinner over the page. Every component imports its routing from
 * here, never from wouter, so that this contract lives in one place.
 */

export { Link, Route, Switch, useParams };

/** Where the app is: the path as the address bar has it (still percent-encoded), and `?…` or ''. */
export interface AppLocation {
  pathname: string;
  search: string;
}
export interface NavigateOptions {
  /** Replace the current history entry (no new Back step). */
  replace?: boolean;
}
export type Navigate = (to: string, options?: NavigateOptions) => void;

interface LocationState {
  location: AppLocation;
  navigate: Navigate;
}
const LocationContext = createContext<LocationState | null>(null);

function useLocationState(): LocationState {
  const state = useContext(LocationContext);
  if (!state) throw new Error('routing: no BrowserRouter or MemoryRouter above this component');
  return state;
}

// wouter reads the address through these hooks (its Router's `hook` and `searchHook`).
const useWouterLocation = (): [string, Navigate] => {
  const { location, navigate } = useLocationState();
  return [location.pathname, navigate];
};
const useWouterSearch = () => useLocationState().location.search;

/** Splits `/a/b?c=d` (an absolute path, as every link of the app is) into path and search. */
export function parseLocation(to: string): AppLocation {
  const at = to.indexOf('?');
  const pathname = at === -1 ? to : to.slice(0, at);
  const search = at === -1 ? '' : to.slice(at);
  return { pathname: pathname || '/', search: search === '?' ? '' : search };
}

const same = (a: AppLocation, b: AppLocation) => a.pathname === b.pathname && a.search === b.search;

function useLocationProvider(
  initial: () => AppLocation,
  onLocation: ((location: AppLocation) => void) | undefined,
) {
  const [location, setLocation] = useState(() => {
    const first = initial();
    onLocation?.(first);
    return first;
  });
  // What was last shown (or is about to be): a change of address is acted on once.
  const shown = useRef(location);
  const latest = useRef(onLocation);
  useLayoutEffect(() => {
    latest.current = onLocation;
  });
  const show = useCallback((next: AppLocation) => {
    if (same(shown.current, next)) return;
    shown.current = next;
    latest.current?.(next);
    startTransition(() => {
      setLocation(next);
    });
  }, []);
  return [location, show] as const;
}

function Provider({ location, navigate, children }: LocationState & { children: ReactNode }) {
  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return (
    <LocationContext value={value}>
      <Router hook={useWouterLocation} searchHook={useWouterSearch}>
        {children}
      </Router>
    </LocationContext>
  );
}

const browserLocation = (): AppLocation => ({
  pathname: window.location.pathname,
  search: window.location.search,
});

/**
 * The app's router: the browser's address and history. `onLocation` runs for the first address
 * and for every change, before the screen renders (where a screen's data starts loading while its
 * code does, as react-router's loaders did).
 */
export function BrowserRouter({
  children,
  onLocation,
}: {
  children: ReactNode;
  onLocation?: (location: AppLocation) => void;
}) {
  const [location, show] = useLocationProvider(browserLocation, onLocation);
  useLayoutEffect(() => {
    const onPop = () => {
      show(browserLocation());
    };
    window.addEventListener('popstate', onPop);
    // A child's effect may have navigated before this one subscribed.
    onPop();
    return () => {
      window.removeEventListener('popstate', onPop);
    };
  }, [show]);
  const navigate = useCallback<Navigate>(
    (to, options) => {
      if (options?.replace) window.history.replaceState(null, '', to);
      else window.history.pushState(null, '', to);
      show(browserLocation());
    },
    [show],
  );
  return (
    <Provider location={location} navigate={navigate}>
      {children}
    </Provider>
  );
}

/** A router of its own address, for tests: starts at the first of `initialEntries`. */
export function MemoryRouter({
  children,
  initialEntries = ['/'],
}: {
  children: ReactNode;
  initialEntries?: readonly string[];
}) {
  const [location, show] = useLocationProvider(
    () => parseLocation(initialEntries[0] ?? '/'),
    undefined,
  );
  const navigate = useCallback<Navigate>(
    (to) => {
      show(parseLocation(to));
    },
    [show],
  );
  return (
    <Provider location={location} navigate={navigate}>
      {children}
    </Provider>
  );
}

/** The current address. */
export const useLocation = (): AppLocation => useLocationState().location;

/** A function that goes to an absolute path of the app (`?…` included). */
export const useNavigate = (): Navigate => useLocationState().navigate;

/**
 * The address's query as URLSearchParams, and a setter that keeps the path. The setter is stable
 * and takes the params or a function of the current ones (a copy: changing it is safe).
 */
export function useSearchParams(): [
  URLSearchParams,
  (
    next: URLSearchParams | ((current: URLSearchParams) => URLSearchParams),
    options?: NavigateOptions,
  ) => void,
] {
  const { location, navigate } = useLocationState();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const current = useRef(location);
  useLayoutEffect(() => {
    current.current = location;
  });
  const set = useCallback(
    (
      next: URLSearchParams | ((current: URLSearchParams) => URLSearchParams),
      options?: NavigateOptions,
    ) => {
      const { pathname, search } = current.current;
      const query = (
        typeof next === 'function' ? next(new URLSearchParams(search)) : next
      ).toString();
      navigate(query ? `${pathname}?${query}` : pathname, options);
    },
    [navigate],
  );
  return [params, set];
}

/** The params of `pattern` (wouter's syntax: `/a/:b/*?`) when the address matches it. */
export function useMatch(pattern: string): Record<string, string | undefined> | null {
  const [matched, params] = useRoute(pattern);
  return matched ? params : null;
}

/** Goes to `to` once rendered (replacing the current entry with `replace`). */
export function Navigate({ to, replace }: { to: string; replace?: boolean }) {
  return <Redirect to={to} replace={replace} />;
}
