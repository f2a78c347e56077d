import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { Box, Button, Link, Stack } from '@mui/material';
import { memo } from 'react';
import type { NodePoolView } from '@dcs/domain';
import { Link as RouterLink } from '../../../lib/routing';
import { ActionButton } from '../../../components/ActionButton';
import { useAutoscaleTexts } from '../../../i18n/autoscale';
import { useHealthCheckTexts } from '../../../i18n/health-check';
import { useI18n } from '../../../i18n/context';
import { formatMemoryMB } from '../../../i18n/format';
import { ipPoolPath, poolConditionsPath, poolDiskMigrationPath } from '../../../lib/paths';
import type { PoolCardProps } from './pool-actions';
import { AutoscalerStatus, autoscalingText } from './AutoscalerFacts';
import { PoolCardFrame } from './PoolCardFrame';
import { PoolFacts } from './PoolFacts';
import { PoolMoreMenu } from './PoolMoreMenu';
import { ReplicaCounts } from './ReplicaCounts';
import { restartFact } from './restart-fact';
import { RolloutProgress } from './RolloutProgress';

/** U-3: a worker pool's card. Memoized: a stream event for another pool does not re-render it. */
export const WorkerPoolCard = memo(function WorkerPoolCard({
  pool,
  permissions,
  gatedReason,
  onAction,
  autoscaler,
}: PoolCardProps) {
  const { t, locale } = useI18n();
  const as = useAutoscaleTexts();
  const hc = useHealthCheckTexts();
  const tpl = pool.machineTemplate;
  const deleting = pool.status === 'Deleting' ? t('pool.isDeleting') : undefined;
  const blocked = gatedReason ?? deleting;
  const templateText = tpl.found
    ? [
        tpl.name,
        tpl.vmTemplateName,
        tpl.cpu !== undefined ? t('pool.cpuCores', { n: tpl.cpu }) : undefined,
        formatMemoryMB(tpl.memoryMB),
      ]
        .filter(Boolean)
        .join(' · ')
    : t('pool.templateMissing', { name: tpl.name });
  return (
    <PoolCardFrame
      pool={pool}
      subtitle={t('pool.workerSubtitle')}
      problemActions={{
        // R-MD-3's "keep maxSurge = 0" leads to the dialog that does it (O-EDIT-STRATEGY).
        'surge-with-persistent-disks': (
          <ActionButton
            size="small"
            color="inherit"
            label={t('pool.editStrategyFromProblem')}
            permission={permissions?.editStrategy}
            blockedReason={blocked}
            onClick={() => {
              onAction('editStrategy', pool);
            }}
          />
        ),
        // R-DISK-5's legacy-layout warning leads to the migration plan (read-only guidance).
        'legacy-disk-layout': (
          <Button
            size="small"
            color="inherit"
            component={RouterLink}
            to={poolDiskMigrationPath(pool.namespace, pool.cluster, pool.id)}
          >
            {t('migration.link')}
          </Button>
        ),
      }}
      actions={
        <>
          <ActionButton
            size="small"
            variant="outlined"
            label={t('action.scale')}
            permission={permissions?.scalePool}
            blockedReason={blocked}
            onClick={() => {
              onAction('scale', pool);
            }}
          />
          <ActionButton
            size="small"
            variant="outlined"
            label={t('action.upgrade')}
            permission={permissions?.upgradePool}
            blockedReason={blocked}
            onClick={() => {
              onAction('upgrade', pool);
            }}
          />
          <ActionButton
            size="small"
            label={t('action.editStrategy')}
            permission={permissions?.editStrategy}
            blockedReason={blocked}
            onClick={() => {
              onAction('editStrategy', pool);
            }}
          />
          <ActionButton
            size="small"
            label={as('action.autoscale')}
            permission={permissions?.autoscalePool}
            blockedReason={blocked}
            onClick={() => {
              onAction('autoscale', pool);
            }}
          />
          <ActionButton
            size="small"
            label={hc('action.healthCheck')}
            permission={permissions?.healthCheckPool}
            blockedReason={blocked}
            onClick={() => {
              onAction('healthCheck', pool);
            }}
          />
          <ActionButton
            size="small"
            label={t('action.editBootstrap')}
            permission={permissions?.editBootstrap ?? permissions?.upgradePool}
            blockedReason={blocked}
            onClick={() => {
              onAction('editBootstrap', pool);
            }}
          />
          <Button
            size="small"
            component={RouterLink}
            to={poolConditionsPath(pool.namespace, pool.cluster, pool.id)}
          >
            {t('pool.conditions')}
          </Button>
          <Box sx={{ ml: 'auto !important', display: 'flex' }}>
            <PoolMoreMenu
              pool={pool}
              onYaml={() => {
                onAction('yaml', pool);
              }}
              onPause={() => {
                onAction('pause', pool);
              }}
              pausePermission={permissions?.pausePool}
              onRestart={() => {
                onAction('restart', pool);
              }}
              restartPermission={permissions?.restartPool}
              restartBlocked={blocked}
            />
            <ActionButton
              icon={<DeleteOutlined />}
              label={t('action.deletePool', { name: pool.name })}
              permission={permissions?.deletePool}
              blockedReason={blocked}
              onClick={() => {
                onAction('delete', pool);
              }}
            />
          </Box>
        </>
      }
    >
      <Stack spacing={1.5}>
        <ReplicaCounts replicas={pool.replicas} v1beta2={pool.v1beta2} />
        <PoolFacts
          items={[
            {
              label: t('pool.version'),
              id: 'version',
              value: (
                <>
                  {pool.version ?? '—'}
                  {pool.upgradeAvailable && (
                    <Box component="span" sx={{ color: 'info.main', ml: 1 }}>
                      {t('pool.upgradeAvailable', { version: pool.upgradeAvailable })}
                    </Box>
                  )}
                </>
              ),
            },
            { label: t('pool.machineTemplate'), id: 'template', value: templateText },
            {
              label: t('pool.ipPool'),
              id: 'ip-pool',
              value: pool.ipPool ? (
                <Link
                  component={RouterLink}
                  to={ipPoolPath(pool.namespace, pool.cluster, pool.ipPool.name)}
                >
                  {pool.ipPool.found
                    ? t('pool.ipUsage', {
                        name: pool.ipPool.name,
                        used: pool.ipPool.used,
                        total: pool.ipPool.total,
                      })
                    : t('pool.ipPoolMissing', { name: pool.ipPool.name })}
                </Link>
              ) : (
                '—'
              ),
            },
            {
              label: t('pool.strategy'),
              id: 'strategy',
              value: t('pool.strategyValue', {
                maxSurge: String(pool.strategy.maxSurge ?? '—'),
                maxUnavailable: String(pool.strategy.maxUnavailable ?? '—'),
              }),
            },
            // Issue 26 item 2: the cluster autoscaler's bounds, and what it says of the pool.
            { label: as('pool.autoscaling'), id: 'autoscaling', value: autoscalingText(pool, as) },
            ...(pool.autoscaler?.bounds
              ? [
                  {
                    label: as('pool.autoscalerStatus'),
                    id: 'autoscaler-status',
                    value: <AutoscalerStatus pool={pool} view={autoscaler} />,
                  },
                ]
              : []),
            // Issue 26 item 1: the health check watching the pool's machines, and its counts.
            { label: hc('pool.healthCheck'), id: 'health-check', value: healthCheckText(pool, hc) },
            ...restartFact(pool, t, locale),
          ]}
        />
        <RolloutProgress rollout={pool.rollout} namespace={pool.namespace} cluster={pool.cluster} />
      </Stack>
    </PoolCardFrame>
  );
});

function healthCheckText(pool: NodePoolView, hc: ReturnType<typeof useHealthCheckTexts>): string {
  const c = pool.healthCheck;
  if (!c) return hc('pool.healthCheck.none');
  if (c.expectedMachines === undefined) return hc('pool.healthCheck.notObserved', { name: c.name });
  return hc(c.held ? 'pool.healthCheck.held' : 'pool.healthCheck.counts', {
    name: c.name,
    healthy: c.currentHealthy ?? 0,
    expected: c.expectedMachines,
  });
}
