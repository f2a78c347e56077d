import type { ConditionView } from '@dcs/domain';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import WarningAmber from '@mui/icons-material/WarningAmber';
import {
  Alert,
  Box,
  Chip,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useI18n } from '../../../i18n/context';
import { formatAbsolute, formatRelative } from '../../../i18n/format';
import { useNow } from '../../../lib/use-now';

/**
 * U-6: an object's conditions with type, status, severity, reason, message and last transition
 * (relative and absolute), problems first (domain's conditionViews order).
 */
export function ConditionsTable({
  conditions,
  title,
  headingLevel = 'h3',
}: {
  conditions: readonly ConditionView[];
  title: string;
  headingLevel?: 'h2' | 'h3' | 'h4';
}) {
  const { t, locale } = useI18n();
  const now = useNow(15_000);
  return (
    <Box component="section" aria-label={title} sx={{ mb: 3 }}>
      <Typography
        variant={headingLevel === 'h2' ? 'h2' : 'h3'}
        component={headingLevel}
        sx={{ mb: 1 }}
      >
        {title}
      </Typography>
      {conditions.length === 0 ? (
        <Alert severity="info">{t('conditions.none')}</Alert>
      ) : (
        <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                <TableCell>{t('conditions.type')}</TableCell>
                <TableCell>{t('conditions.status')}</TableCell>
                <TableCell>{t('conditions.severity')}</TableCell>
                <TableCell>{t('conditions.reason')}</TableCell>
                <TableCell sx={{ width: '40%' }}>{t('conditions.message')}</TableCell>
                <TableCell>{t('conditions.lastTransition')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {conditions.map((c) => (
                <TableRow
                  key={c.type}
                  data-problem={c.problem ? 'true' : undefined}
                  sx={
                    c.problem
                      ? {
                          '& > td:first-of-type': {
                            borderLeft: 4,
                            borderLeftColor: c.severity === 'Error' ? 'error.main' : 'warning.main',
                          },
                        }
                      : undefined
                  }
                >
                  <TableCell sx={{ fontWeight: 600 }}>
                    {c.problem &&
                      (c.severity === 'Error' ? (
                        <ErrorOutlined
                          fontSize="small"
                          color="error"
                          titleAccess={t('conditions.problem')}
                          sx={{ verticalAlign: 'middle', mr: 0.5 }}
                        />
                      ) : (
                        <WarningAmber
                          fontSize="small"
                          color="warning"
                          titleAccess={t('conditions.problem')}
                          sx={{ verticalAlign: 'middle', mr: 0.5 }}
                        />
                      ))}
                    {c.type}
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      variant="outlined"
                      color={
                        c.status === 'True'
                          ? 'success'
                          : c.problem
                            ? c.severity === 'Error'
                              ? 'error'
                              : 'warning'
                            : 'default'
                      }
                      label={c.status}
                    />
                  </TableCell>
                  <TableCell>{c.severity ?? '—'}</TableCell>
                  <TableCell>{c.reason ?? '—'}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{c.message ?? '—'}</TableCell>
                  <TableCell>
                    <time
                      dateTime={c.lastTransitionTime}
                      title={formatAbsolute(c.lastTransitionTime, locale)}
                    >
                      {formatRelative(c.lastTransitionTime, now, locale)}
                    </time>
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                      {formatAbsolute(c.lastTransitionTime, locale)}
                    </Typography>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
