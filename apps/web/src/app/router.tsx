import { createBrowserRouter, Navigate } from 'react-router';
import { clusterContextQueryOptions } from '../api/get-cluster-context';
import { clustersQueryOptions } from '../features/clusters/api/get-clusters';
import { ClustersPage } from '../features/clusters/components/ClustersPage';
import { nodePoolsQueryOptions } from '../features/node-pools/api/get-node-pools';
import { sessionQueryOptions } from '../features/session/api/get-session';
import { RequireSession } from '../features/session/components/RequireSession';
import { PageLoading } from '../components/PageLoading';
import { AppLayout } from './AppLayout';
import { queryClient } from './query-client';
import { RouteError } from './routes/RouteError';

/**
 * Every screen has a URL (support staff paste them into tickets): a cluster, its tabs, a pool,
 * a machine, their conditions. Everything past the cluster list is loaded on first visit.
 */
/** A prefetch that fails is retried by the screen's own query, which shows the error. */
const ignore = () => undefined;

export const router = createBrowserRouter([
  {
    path: '/sign-in',
    // The first load waits for the route's code: a spinner meanwhile, not a blank page.
    HydrateFallback: PageLoading,
    lazy: async () => ({
      Component: (await import('../features/session/components/SignInPage')).SignInPage,
    }),
  },
  {
    path: '/',
    element: (
      <RequireSession>
        <AppLayout />
      </RequireSession>
    ),
    errorElement: <RouteError />,
    HydrateFallback: PageLoading,
    loader: () => {
      queryClient.query(sessionQueryOptions()).catch(ignore);
      return null;
    },
    children: [
      { index: true, element: <ClustersPage /> },
      {
        path: 'clusters/:namespace/:cluster',
        lazy: async () => ({ Component: (await import('./routes/ClusterLayout')).ClusterLayout }),
        // The tab's data loads while its code does.
        loader: ({ params }) => {
          const { namespace = '', cluster = '' } = params;
          queryClient.query(clustersQueryOptions()).catch(ignore);
          queryClient.query(nodePoolsQueryOptions(namespace, cluster)).catch(ignore);
          queryClient.query(clusterContextQueryOptions(namespace, cluster)).catch(ignore);
          return null;
        },
        children: [
          { index: true, element: <Navigate to="node-pools" replace /> },
          {
            path: 'node-pools',
            lazy: async () => ({
              Component: (await import('./routes/NodePoolsRoute')).NodePoolsRoute,
            }),
          },
          {
            path: 'node-pools/new',
            lazy: async () => ({ Component: (await import('./routes/AddPoolRoute')).AddPoolRoute }),
          },
          {
            path: 'node-pools/:pool',
            lazy: async () => ({ Component: (await import('./routes/PoolRoute')).PoolRoute }),
          },
          {
            path: 'node-pools/:pool/conditions',
            lazy: async () => ({
              Component: (await import('./routes/PoolRoute')).PoolConditionsRoute,
            }),
          },
          {
            path: 'node-pools/:pool/disk-migration',
            lazy: async () => ({
              Component: (await import('./routes/DiskMigrationRoute')).DiskMigrationRoute,
            }),
          },
          {
            path: 'nodes',
            lazy: async () => ({ Component: (await import('./routes/NodesRoute')).NodesRoute }),
          },
          {
            path: 'nodes/:machine',
            lazy: async () => ({ Component: (await import('./routes/MachineRoute')).MachineRoute }),
          },
          {
            path: 'nodes/:machine/conditions',
            lazy: async () => ({ Component: (await import('./routes/MachineRoute')).MachineRoute }),
          },
          {
            path: 'tree',
            lazy: async () => ({
              Component: (await import('./routes/ObjectTreeRoute')).ObjectTreeRoute,
            }),
          },
          {
            path: 'ip-pools',
            lazy: async () => ({ Component: (await import('./routes/IpPoolsRoute')).IpPoolsRoute }),
          },
          {
            path: 'ip-pools/new',
            lazy: async () => ({
              Component: (await import('./routes/IpPoolsRoute')).NewIpPoolRoute,
            }),
          },
          {
            path: 'ip-pools/:ipPool',
            lazy: async () => ({ Component: (await import('./routes/IpPoolsRoute')).IpPoolRoute }),
          },
        ],
      },
      { path: '*', element: <RouteError notFound /> },
    ],
  },
]);
