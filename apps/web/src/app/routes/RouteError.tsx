import { Alert, Button } from '@mui/material';
import { Link as RouterLink, useRouteError } from 'react-router';
import { useI18n } from '../../i18n/context';

export function RouteError({ notFound }: { notFound?: boolean }) {
  const { t } = useI18n();
  const error: unknown = useRouteError();
  return (
    <Alert
      severity={notFound ? 'info' : 'error'}
      sx={{ m: 3 }}
      action={
        <Button component={RouterLink} to="/" color="inherit">
          {t('clusters.title')}
        </Button>
      }
    >
      {notFound ? t('common.notFound') : error instanceof Error ? error.message : t('common.error')}
    </Alert>
  );
}
