import { Alert, AlertTitle, Box, Button } from '@mui/material';
import { diffObjects } from '@dcs/domain';
import { useI18n } from '../i18n/context';
import type { Conflict } from '../lib/use-plan-flow';

/**
 * A 409: someone changed an object after the user saw it. Shows what they changed (base →
 * theirs) and offers to re-apply the user's intent over the new state (R-POOL-4).
 */
export function ConflictNotice({
  conflict,
  onReapply,
}: {
  conflict: Conflict;
  onReapply?: (() => void) | undefined;
}) {
  const { t, localize } = useI18n();
  const theirs =
    conflict.base !== undefined && conflict.theirs !== undefined
      ? diffObjects(conflict.base, conflict.theirs)
      : [];
  return (
    <Alert
      severity="warning"
      role="alert"
      sx={{ mt: 1 }}
      action={
        onReapply && (
          <Button color="inherit" size="small" onClick={onReapply}>
            {t('conflict.reapply')}
          </Button>
        )
      }
    >
      <AlertTitle>{t('conflict.title')}</AlertTitle>
      {localize(conflict.reason)}
      {theirs.length > 0 && (
        <>
          <Box sx={{ mt: 1 }}>{t('conflict.theyChanged')}</Box>
          <Box component="ul" sx={{ m: 0, pl: 2, fontFamily: 'monospace', fontSize: 12 }}>
            {theirs
              .filter(
                (c) =>
                  !c.path.startsWith('/metadata/resourceVersion') &&
                  !c.path.startsWith('/metadata/managedFields') &&
                  !c.path.startsWith('/status'),
              )
              .slice(0, 20)
              .map((c) => (
                <li key={c.path}>
                  {c.path}: {JSON.stringify(c.before)} → {JSON.stringify(c.after)}
                </li>
              ))}
          </Box>
        </>
      )}
      {conflict.fields && conflict.fields.length > 0 && (
        <Box sx={{ mt: 1 }}>{t('conflict.fields', { fields: conflict.fields.join(', ') })}</Box>
      )}
      <Box sx={{ mt: 1 }}>{t('conflict.help')}</Box>
    </Alert>
  );
}
