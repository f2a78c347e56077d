import { CONTROL_PLANE_REPLICAS } from '@dcs/domain';
import { Box, Button, Stack } from '@mui/material';
import { memo } from 'react';
import { Link as RouterLink } from '../../../lib/routing';
import { ActionButton } from '../../../components/ActionButton';
import { useI18n } from '../../../i18n/context';
import { formatMemoryMB } from '../../../i18n/format';
import { poolConditionsPath } from '../../../lib/paths';
import type { PoolCardProps } from './pool-actions';
import { PoolCardFrame } from './PoolCardFrame';
import { PoolFacts } from './PoolFacts';
import { PoolMoreMenu } from './PoolMoreMenu';
import { ReplicaCounts } from './ReplicaCounts';
import { restartFact } from './restart-fact';
import { RolloutProgress } from './RolloutProgress';

/** U-2: the control plane, fixed at 3 replicas, its version with an upgrade indicator, Conditions. */
export const ControlPlaneCard = memo(function ControlPlaneCard({
  pool,
  permissions,
  gatedReason,
  onAction,
}: PoolCardProps) {
  const { t, locale } = useI18n();
  const tpl = pool.machineTemplate;
  return (
    <PoolCardFrame
      pool={pool}
      subtitle={t('pool.controlPlaneSubtitle', { name: pool.name })}
      actions={
        <>
          <Button
            size="small"
            variant="outlined"
            component={RouterLink}
            to={poolConditionsPath(pool.namespace, pool.cluster, pool.id)}
          >
            {t('pool.conditions')}
          </Button>
          {pool.upgradeAvailable && (
            <ActionButton
              size="small"
              variant="contained"
              label={t('action.upgradeTo', { version: pool.upgradeAvailable })}
              permission={permissions?.upgradeControlPlane ?? permissions?.upgradePool}
              blockedReason={gatedReason}
              onClick={() => {
                onAction('upgradeControlPlane', pool);
              }}
            />
          )}
          <ActionButton
            size="small"
            label={t('cpConfig.action')}
            permission={permissions?.editControlPlaneConfig}
            blockedReason={gatedReason}
            onClick={() => {
              onAction('editControlPlaneConfig', pool);
            }}
          />
          <Box sx={{ ml: 'auto !important' }}>
            <PoolMoreMenu
              pool={pool}
              onYaml={() => {
                onAction('yaml', pool);
              }}
              onPause={() => {
                onAction('pause', pool);
              }}
              pausePermission={permissions?.pauseControlPlane}
              onRestart={() => {
                onAction('restart', pool);
              }}
              restartPermission={permissions?.restartControlPlane}
              restartBlocked={gatedReason}
            />
          </Box>
        </>
      }
    >
      <Stack spacing={1.5}>
        <ReplicaCounts replicas={pool.replicas} v1beta2={pool.v1beta2} fixed />
        <PoolFacts
          items={[
            {
              label: t('pool.version'),
              id: 'version',
              value: (
                <>
                  {pool.version ?? '—'}
                  {pool.upgradeAvailable && (
                    <Box
                      component="span"
                      role="note"
                      sx={{ color: 'info.main', ml: 1, fontWeight: 600 }}
                    >
                      ↑ {t('pool.upgradeAvailable', { version: pool.upgradeAvailable })}
                    </Box>
                  )}
                </>
              ),
            },
            {
              label: t('pool.machineTemplate'),
              id: 'template',
              value: tpl.found
                ? [
                    tpl.name,
                    tpl.vmTemplateName,
                    tpl.cpu !== undefined ? t('pool.cpuCores', { n: tpl.cpu }) : undefined,
                    formatMemoryMB(tpl.memoryMB),
                  ]
                    .filter(Boolean)
                    .join(' · ')
                : t('pool.templateMissing', { name: tpl.name }),
            },
            {
              label: t('pool.highAvailability'),
              id: 'ha',
              // Only the layout the console keeps is "fixed"; any other count is a problem (U-2).
              value:
                pool.replicas.desired === CONTROL_PLANE_REPLICAS
                  ? t('pool.fixedReplicas', { n: pool.replicas.desired })
                  : t('pool.replicasNotFixed', {
                      n: pool.replicas.desired,
                      expected: CONTROL_PLANE_REPLICAS,
                    }),
            },
            ...restartFact(pool, t, locale),
          ]}
        />
        <RolloutProgress rollout={pool.rollout} namespace={pool.namespace} cluster={pool.cluster} />
      </Stack>
    </PoolCardFrame>
  );
});
