import { Alert, type SxProps, type Theme } from '@mui/material';
import { useI18n } from '../i18n/context';
import { errorText } from '../lib/error-text';

const MAX_DETAILS = 5;

/**
 * The one way an error from the BFF is shown: its code as a headline in the user's language and
 * its reasons (RuleIssues) below it, localized by the rule catalogs (`errorText`). `details`
 * false: the headline only, where the reasons are shown at their fields already.
 */
export function ErrorAlert({
  error,
  severity = 'error',
  details = true,
  sx,
}: {
  error: unknown;
  severity?: 'error' | 'warning';
  details?: boolean;
  sx?: SxProps<Theme>;
}) {
  const { t, localize } = useI18n();
  const text = errorText(error, t, localize);
  const shown = details ? text.details.slice(0, MAX_DETAILS) : [];
  const more = details ? text.details.length - shown.length : 0;
  return (
    <Alert severity={severity} role="alert" {...(sx ? { sx } : {})}>
      {text.title}
      {shown.length > 0 && (
        <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
          {shown.map((d) => (
            <li key={d}>{d}</li>
          ))}
          {more > 0 && <li>{t('common.moreProblems', { count: more })}</li>}
        </ul>
      )}
    </Alert>
  );
}
