import type { MachineView } from '@dcs/domain';
import { Box, Chip, Link, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from '../../../lib/routing';
import { FactList } from '../../../components/FactList';
import { useI18n } from '../../../i18n/context';
import { formatAbsolute, formatAge } from '../../../i18n/format';
import { poolPath } from '../../../lib/paths';
import { useNow } from '../../../lib/use-now';
import { DiagnosisPanel } from './DiagnosisPanel';
import { NodeProblemPanel } from './NodeProblemPanel';

/** One machine: where it stands, its node and address, why it is stuck if it is (T-1). */
export function MachineDetails({ machine: m }: { machine: MachineView }) {
  const { t, locale } = useI18n();
  const now = useNow(10_000);
  const facts: [string, ReactNode][] = [
    [t('nodes.phase'), m.phase],
    [
      t('nodes.pool'),
      m.poolId ? (
        <Link component={RouterLink} to={poolPath(m.namespace, m.cluster, m.poolId)}>
          {m.poolId === 'control-plane' ? t('pool.controlPlane') : m.poolId}
        </Link>
      ) : (
        '—'
      ),
    ],
    [t('nodes.node'), m.nodeName ?? '—'],
    [t('nodes.ip'), m.ip ?? '—'],
    [t('machine.hostname'), m.hostname ?? '—'],
    [t('nodes.version'), m.version ?? '—'],
    [
      t('nodes.age'),
      `${formatAge(m.createdAt, now, locale)} (${formatAbsolute(m.createdAt, locale)})`,
    ],
    [t('machine.vmState'), m.vmState ?? '—'],
    [t('machine.dcsMachine'), m.dcsMachineName ?? '—'],
    [t('machine.providerId'), m.providerID ?? '—'],
    [
      t('machine.upToDate'),
      m.upToDate === undefined ? '—' : m.upToDate ? t('common.yes') : t('common.no'),
    ],
  ];
  if (m.failureReason || m.failureMessage)
    facts.push([t('machine.failure'), `${m.failureReason ?? ''} ${m.failureMessage ?? ''}`]);
  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h2">{m.name}</Typography>
        <Chip size="small" label={m.phase} color={m.ready ? 'success' : 'default'} />
        {m.markedForDeletion && <Chip size="small" color="warning" label={t('nodes.marked')} />}
      </Stack>
      {m.diagnosis ? <DiagnosisPanel diagnosis={m.diagnosis} /> : <NodeProblemPanel machine={m} />}
      <FactList facts={facts} />
    </Box>
  );
}
