import type { Diagnosis, ViewMessageKey } from '@dcs/domain';
import { Alert, AlertTitle, Box, Typography } from '@mui/material';
import { useI18n } from '../../../i18n/context';
import { formatAbsolute } from '../../../i18n/format';

/** T-1 and its neighbours: what is wrong with a machine, and the checks to go through, in order. */
export function DiagnosisPanel({ diagnosis }: { diagnosis: Diagnosis }) {
  const { t, localize, locale } = useI18n();
  return (
    <Alert
      severity={diagnosis.severity}
      sx={{ mb: 2 }}
      role="region"
      aria-label={t('diagnosis.title')}
    >
      <AlertTitle>
        {t('diagnosis.title')}: {t(`diagnosis.${diagnosis.code}`)}
        {diagnosis.rule ? ` (${diagnosis.rule})` : ''}
      </AlertTitle>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {localize({ ...diagnosis, params: localTimes(diagnosis.params, locale) })}
      </Typography>
      {diagnosis.since && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('diagnosis.since', { time: formatAbsolute(diagnosis.since, locale) })}
        </Typography>
      )}
      <Checklist keys={diagnosis.checklist} />
    </Alert>
  );
}

/** The checks to go through, in order, under their heading; nothing when there are none. */
export function Checklist({ keys }: { keys: readonly ViewMessageKey[] }) {
  const { t, localize } = useI18n();
  if (keys.length === 0) return null;
  return (
    <>
      <Typography variant="subtitle2" component="h4">
        {t('diagnosis.checklist')}
      </Typography>
      <Box component="ol" sx={{ m: 0, pl: 3 }}>
        {keys.map((key) => (
          <li key={key}>
            <Typography variant="body2">
              {localize({ messageKey: key, params: {}, message: key })}
            </Typography>
          </li>
        ))}
      </Box>
    </>
  );
}

/** `since` params are RFC 3339 on the wire; show them in the reader's format. */
function localTimes(params: Record<string, string | number>, locale: 'en' | 'zh-CN') {
  const out: Record<string, string | number> = { ...params };
  if (typeof out.since === 'string') out.since = formatAbsolute(out.since, locale);
  return out;
}
