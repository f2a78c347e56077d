import { Alert, Box, CircularProgress } from '@mui/material';
import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from '../../../lib/routing';
import { useQueryClient } from '@tanstack/react-query';
import { useI18n } from '../../../i18n/context';
import { setUnauthorizedHandler } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useSession } from '../api/get-session';
import { errorText } from '../../../lib/error-text';

/** Shows its children to a signed-in user; sends anyone else to the sign-in screen. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { t, localize } = useI18n();
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();

  useEffect(() => {
    setUnauthorizedHandler(() => {
      void client.invalidateQueries({ queryKey: queryKeys.session });
    });
    return () => {
      setUnauthorizedHandler(undefined);
    };
  }, [client, navigate]);

  if (session.isPending)
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '50vh' }}>
        <CircularProgress aria-label={t('common.loading')} />
      </Box>
    );
  if (session.isError)
    return (
      <Alert severity="error" sx={{ m: 3 }}>
        {t('session.unavailable', { message: errorText(session.error, t, localize).title })}
      </Alert>
    );
  if (!session.data.authenticated) {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/sign-in?next=${next}`} replace />;
  }
  return children;
}
