import type { ScaleUpProgress } from '@dcs/domain';
import CheckCircle from '@mui/icons-material/CheckCircle';
import HourglassEmpty from '@mui/icons-material/HourglassEmpty';
import {
  Alert,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { PhaseChip } from '../../../components/PhaseChip';
import { useI18n } from '../../../i18n/context';

/**
 * O-SCALE-UP after it was applied: the new machines as the stream reports them, each with its
 * phase, until every one asked for is Running with a Ready node; then it says so.
 */
export function ScaleFollow({ progress }: { progress: ScaleUpProgress }) {
  const { t } = useI18n();
  const { machines, ready, expected, done } = progress;
  return (
    <>
      {done ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {t('scale.allReady', { count: expected })}
        </Alert>
      ) : (
        <>
          <Typography role="status" sx={{ mb: 1 }}>
            {t('scale.following', { ready, expected })}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={expected === 0 ? 100 : (100 * ready) / expected}
            aria-label={t('scale.following', { ready, expected })}
            sx={{ mb: 2 }}
          />
        </>
      )}
      {machines.length === 0 ? (
        <Typography color="text.secondary">{t('scale.waitingForMachines')}</Typography>
      ) : (
        <Table size="small" aria-label={t('scale.newMachines')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('nodes.name')}</TableCell>
              <TableCell>{t('nodes.phase')}</TableCell>
              <TableCell>{t('nodes.node')}</TableCell>
              <TableCell>{t('nodes.ip')}</TableCell>
              <TableCell>{t('scale.ready')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {machines.map((m) => (
              <TableRow key={m.name}>
                <TableCell>{m.name}</TableCell>
                <TableCell>
                  <PhaseChip phase={m.phase} />
                </TableCell>
                <TableCell>{m.nodeName ?? '—'}</TableCell>
                <TableCell>{m.ip ?? '—'}</TableCell>
                <TableCell>
                  {m.ready ? (
                    <CheckCircle color="success" fontSize="small" aria-label={t('common.yes')} />
                  ) : (
                    <HourglassEmpty color="disabled" fontSize="small" aria-label={t('common.no')} />
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}
