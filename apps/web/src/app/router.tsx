import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { parse } from 'regexparam';
import { clusterContextQueryOptions } from '../api/get-cluster-context';
import { PageLoading } from '../components/PageLoading';
import { clustersQueryOptions } from '../features/clusters/api/get-clusters';
import { ClustersPage } from '../features/clusters/components/ClustersPage';
import { nodePoolsQueryOptions } from '../features/node-pools/api/get-node-pools';
import { sessionQueryOptions } from '../features/session/api/get-session';
import { RequireSession } from '../features/session/components/RequireSession';
import { poolsPath } from '../lib/paths';
import { Navigate, Route, Switch, useLocation, type AppLocation } from '../lib/routing';
import { AppLayout } from './AppLayout';
import { queryClient } from './query-client';
import { RouteError, RouteErrorBoundary } from './routes/RouteError';

/**
 * Every screen has a URL (support staff paste them into tickets): a cluster, its tabs, a pool,
 * a machine, their conditions. Everything past the cluster list is loaded on first visit: each
 * `import()` below is a route module, its own chunk (the build's budget and `pnpm bench` measure
 * each, build/bundle-budget.ts).
 */

/** A lazily loaded route module whose code can start loading before it renders. */
function lazyRoute<P extends object = object>(load: () => Promise<ComponentType<P>>) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (Component) => ({ default: Component }),
      (error: unknown) => {
        // A failed download is tried again on the next visit.
        loading = undefined;
        throw error;
      },
    ));
  return Object.assign(lazy(preload), { preload });
}
type LazyRoute = ReturnType<typeof lazyRoute<object>>;

const SignInRoute = lazyRoute(
  async () => (await import('../features/session/components/SignInPage')).SignInPage,
);
const ClusterLayout = lazyRoute(async () => (await import('./routes/ClusterLayout')).ClusterLayout);
const MachineRoute = lazyRoute(async () => (await import('./routes/MachineRoute')).MachineRoute);

/** A cluster's screens, under its header and tabs; the first pattern that matches is shown. */
const CLUSTER_SCREENS: [path: string, Screen: LazyRoute][] = [
  ['node-pools', lazyRoute(async () => (await import('./routes/NodePoolsRoute')).NodePoolsRoute)],
  ['node-pools/new', lazyRoute(async () => (await import('./routes/AddPoolRoute')).AddPoolRoute)],
  ['node-pools/:pool', lazyRoute(async () => (await import('./routes/PoolRoute')).PoolRoute)],
  [
    'node-pools/:pool/conditions',
    lazyRoute(async () => (await import('./routes/PoolRoute')).PoolConditionsRoute),
  ],
  [
    'node-pools/:pool/disk-migration',
    lazyRoute(async () => (await import('./routes/DiskMigrationRoute')).DiskMigrationRoute),
  ],
  ['nodes', lazyRoute(async () => (await import('./routes/NodesRoute')).NodesRoute)],
  // One component for both: switching between them keeps the page (and its state).
  ['nodes/:machine', MachineRoute],
  ['nodes/:machine/conditions', MachineRoute],
  ['tree', lazyRoute(async () => (await import('./routes/ObjectTreeRoute')).ObjectTreeRoute)],
  ['ip-pools', lazyRoute(async () => (await import('./routes/IpPoolsRoute')).IpPoolsRoute)],
  ['ip-pools/new', lazyRoute(async () => (await import('./routes/IpPoolsRoute')).NewIpPoolRoute)],
  ['ip-pools/:ipPool', lazyRoute(async () => (await import('./routes/IpPoolsRoute')).IpPoolRoute)],
];

interface Screen {
  pattern: string;
  regex: RegExp;
  keys: string[];
  /** Lazy screens of a cluster render inside its layout. */
  Screen?: LazyRoute;
  render: (params: Record<string, string>) => ReactNode;
}

const screen = (pattern: string, rest: Omit<Screen, 'pattern' | 'regex' | 'keys'>): Screen => {
  const { pattern: regex, keys } = parse(pattern);
  return { pattern, regex, keys, ...rest };
};

const CLUSTER = '/clusters/:namespace/:cluster';
const SCREENS: Screen[] = [
  screen('/', { render: () => <ClustersPage /> }),
  screen(CLUSTER, {
    render: ({ namespace = '', cluster = '' }) => (
      <Navigate to={poolsPath(namespace, cluster)} replace />
    ),
  }),
  ...CLUSTER_SCREENS.map(([path, Screen]) =>
    screen(`${CLUSTER}/${path}`, {
      Screen,
      render: () => (
        <ClusterLayout>
          <Screen />
        </ClusterLayout>
      ),
    }),
  ),
];

/** As wouter does before matching: the path percent-decoded (a malformed one as it is). */
function decodePath(pathname: string): string {
  try {
    return pathname.includes('%') ? decodeURI(pathname) : pathname;
  } catch {
    return pathname;
  }
}

/** The signed-in screen at `pathname` and its params, if any (else "not found"). */
export function matchScreen(
  pathname: string,
): { screen: Screen; params: Record<string, string> } | undefined {
  const path = decodePath(pathname);
  for (const s of SCREENS) {
    const m = s.regex.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    s.keys.forEach((k, i) => {
      params[k] = m[i + 1] ?? '';
    });
    return { screen: s, params };
  }
  return undefined;
}

/** A prefetch that fails is retried by the screen's own query or render, which shows the error. */
const ignore = () => undefined;

/**
 * Runs for every address before its screen renders: the screen's code and the data it shows
 * start loading together (no request waterfall behind lazy routes, nor behind a lazy layout).
 */
export function prefetchRoute({ pathname }: AppLocation): void {
  if (pathname === '/sign-in') {
    SignInRoute.preload().catch(ignore);
    return;
  }
  queryClient.query(sessionQueryOptions()).catch(ignore);
  const match = matchScreen(pathname);
  if (!match?.screen.pattern.startsWith(CLUSTER)) return;
  match.screen.Screen?.preload().catch(ignore);
  ClusterLayout.preload().catch(ignore);
  const { namespace = '', cluster = '' } = match.params;
  queryClient.query(clustersQueryOptions()).catch(ignore);
  queryClient.query(nodePoolsQueryOptions(namespace, cluster)).catch(ignore);
  queryClient.query(clusterContextQueryOptions(namespace, cluster)).catch(ignore);
}

/** The console's screens: sign-in on its own, every other one signed in, in the app's frame. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path="/sign-in">
        {/* The first load waits for the route's code: a spinner meanwhile, not a blank page. */}
        <Suspense fallback={<PageLoading />}>
          <SignInRoute />
        </Suspense>
      </Route>
      <Route>
        <SignedIn />
      </Route>
    </Switch>
  );
}

function SignedIn() {
  const { pathname } = useLocation();
  const match = matchScreen(pathname);
  return (
    <RouteErrorBoundary pathname={pathname}>
      <RequireSession>
        <AppLayout>
          {match ? (
            // The same element for every screen: a layout shared by two screens stays mounted.
            <Route path={match.screen.pattern}>{match.screen.render(match.params)}</Route>
          ) : (
            <RouteError notFound />
          )}
        </AppLayout>
      </RequireSession>
    </RouteErrorBoundary>
  );
}
