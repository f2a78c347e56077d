import { conditionAnchor, type ClusterView } from '@dcs/domain';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import {
  Alert,
  Box,
  Breadcrumbs,
  Button,
  Chip,
  Link,
  Stack,
  Tab,
  Tabs,
  Typography,
} from '@mui/material';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useClusterContext } from '../../api/get-cluster-context';
import { ActionButton } from '../../components/ActionButton';
import { PageLoading } from '../../components/PageLoading';
import { PausedChip } from '../../components/PausedChip';
import { useQueryClient } from '@tanstack/react-query';
import { clustersQueryOptions, useClusters } from '../../features/clusters/api/get-clusters';
import { useI18n } from '../../i18n/context';
import { apiUrl, seg } from '../../lib/api-client';
import { ipPoolsPath, nodesPath, objectTreePath, poolsPath } from '../../lib/paths';
import { Link as RouterLink, useLocation, useParams } from '../../lib/routing';
import { StreamContext, useClusterStream } from '../../lib/stream/use-cluster-stream';

const PauseDialog = lazy(() =>
  import('../../features/operations/components/PauseDialog').then((m) => ({
    default: m.PauseDialog,
  })),
);

/** A cluster's page: its header, the tabs of U-1, and one live stream for all of them. */
export function ClusterLayout({ children }: { children: ReactNode }) {
  const { namespace = '', cluster = '' } = useParams();
  // A new cluster is a new page: a fresh stream and fresh state.
  return (
    <ClusterPage key={`${namespace}/${cluster}`} namespace={namespace} cluster={cluster}>
      {children}
    </ClusterPage>
  );
}

function ClusterPage({
  namespace,
  cluster,
  children,
}: {
  namespace: string;
  cluster: string;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const clusters = useClusters();
  const view = clusters.data?.find((c) => c.namespace === namespace && c.name === cluster);
  // A cluster the list (what this user may see) does not have gets no stream, no tabs and no
  // actions: "Reconnecting…" forever would say the data is coming when it never will. The list
  // is usually cached from the clusters page; without it (an error) the page tries the cluster.
  if (clusters.isPending) return <PageLoading />;
  if (clusters.data && !view)
    return (
      <>
        <ClusterBreadcrumbs cluster={cluster} />
        <Alert severity="error" sx={{ mt: 2 }}>
          {t('cluster.notFound', { name: cluster, namespace })}{' '}
          <Link component={RouterLink} to="/">
            {t('cluster.backToClusters')}
          </Link>
        </Alert>
      </>
    );
  return (
    <LiveClusterPage namespace={namespace} cluster={cluster} view={view}>
      {children}
    </LiveClusterPage>
  );
}

/** Clusters › this cluster: the way back to the list, on the live page and on "not found" alike. */
function ClusterBreadcrumbs({ cluster }: { cluster: string }) {
  const { t } = useI18n();
  return (
    <Breadcrumbs aria-label={t('shell.breadcrumbs')} sx={{ mb: 1 }}>
      <Link component={RouterLink} to="/">
        {t('clusters.title')}
      </Link>
      <Typography color="text.primary">{cluster}</Typography>
    </Breadcrumbs>
  );
}

function LiveClusterPage({
  namespace,
  cluster,
  view,
  children,
}: {
  namespace: string;
  cluster: string;
  view: ClusterView | undefined;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const stream = useClusterStream(namespace, cluster);
  const { pathname } = useLocation();
  const tabs = [
    { label: t('tabs.nodePools'), to: poolsPath(namespace, cluster) },
    { label: t('tabs.nodes'), to: nodesPath(namespace, cluster) },
    { label: t('tabs.ipPools'), to: ipPoolsPath(namespace, cluster) },
    { label: t('tabs.objectTree'), to: objectTreePath(namespace, cluster) },
  ];
  const current = tabs.findIndex((tab) => pathname === tab.to || pathname.startsWith(`${tab.to}/`));
  // The Cluster object's own problems (issue 12): a link to the first, on the Node Pools tab.
  const problems = view?.conditions.filter((c) => c.problem) ?? [];
  const firstProblem = problems[0];

  return (
    <StreamContext value={stream}>
      <ClusterBreadcrumbs cluster={cluster} />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="h1" sx={{ mr: 1 }}>
          {cluster}
        </Typography>
        <Chip size="small" variant="outlined" label={t('cluster.namespaceIs', { namespace })} />
        {view?.version && (
          <Chip
            size="small"
            variant="outlined"
            label={t('cluster.versionIs', { version: view.version })}
          />
        )}
        {view?.phase && (
          <Chip
            size="small"
            variant="outlined"
            label={t('cluster.phaseIs', { phase: view.phase })}
          />
        )}
        {view && firstProblem && (
          <Chip
            size="small"
            color={firstProblem.severity === 'Error' ? 'error' : 'warning'}
            label={t('cluster.conditionProblems', { n: problems.length })}
            component={RouterLink}
            to={`${poolsPath(namespace, cluster)}?${new URLSearchParams({
              condition: conditionAnchor('Cluster', view.name, firstProblem.type),
            }).toString()}`}
            clickable
          />
        )}
        {view && <PausedChip pause={view.pause} />}
        <Box sx={{ flexGrow: 1 }} />
        {view && <ClusterPauseAction namespace={namespace} view={view} />}
        {/* For support: the whole cluster in one file (every pool, machine, object, event). */}
        <Button
          size="small"
          component="a"
          href={apiUrl(`/clusters/${seg(namespace)}/${seg(cluster)}/diagnostics`)}
          download
          startIcon={<FileDownloadOutlined />}
        >
          {t('cluster.exportDiagnostics')}
        </Button>
      </Stack>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <Tabs
          value={current === -1 ? false : current}
          aria-label={t('cluster.tabs')}
          component="nav"
        >
          {tabs.map((tab) => (
            <Tab key={tab.to} label={tab.label} component={RouterLink} to={tab.to} />
          ))}
        </Tabs>
      </Box>
      <Suspense fallback={<PageLoading />}>{children}</Suspense>
    </StreamContext>
  );
}

/**
 * O-PAUSE / O-RESUME of the whole cluster (issue 26): its spec.paused. A viewer sees the action,
 * inert, with the access review's refusal (ActionButton).
 */
function ClusterPauseAction({ namespace, view }: { namespace: string; view: ClusterView }) {
  const { t } = useI18n();
  const context = useClusterContext(namespace, view.name);
  const [open, setOpen] = useState(false);
  const client = useQueryClient();
  const paused = view.pause.byCluster;
  return (
    <>
      <ActionButton
        size="small"
        variant="outlined"
        label={t(paused ? 'pause.actionResume' : 'pause.actionPause')}
        permission={context.data?.permissions.pauseCluster}
        onClick={() => {
          setOpen(true);
        }}
      />
      {open && (
        <Suspense fallback={null}>
          <PauseDialog
            namespace={namespace}
            cluster={view.name}
            target={{
              kind: 'Cluster',
              name: view.name,
              label: view.name,
              resourceVersion: view.resourceVersion ?? '',
              pausedByItself: paused,
              clusterPaused: paused,
              currentResourceVersion: async () =>
                (await client.query({ ...clustersQueryOptions(), staleTime: 0 })).find(
                  (c) => c.namespace === namespace && c.name === view.name,
                )?.resourceVersion,
            }}
            onClose={() => {
              setOpen(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
