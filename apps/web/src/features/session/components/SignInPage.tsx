import { Alert, Box, Button, Paper, TextField, Typography } from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { Navigate, useSearchParams } from '../../../lib/routing';
import { useI18n } from '../../../i18n/context';
import { isApiError } from '../../../lib/api-client';
import { useSession } from '../api/get-session';
import { useSignIn } from '../api/sign-in';
import { ErrorAlert } from '../../../components/ErrorAlert';

/** Token mode: paste a Kubernetes bearer token; the console acts with exactly its rights. */
export function SignInPage() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const session = useSession();
  const signIn = useSignIn();
  const [token, setToken] = useState('');

  if (session.data?.authenticated) return <Navigate to={next} replace />;
  if (session.data?.authMode === 'oidc') {
    return <SsoSignIn next={next} failure={params.get('sso_error')} />;
  }

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    if (token.trim() !== '') signIn.mutate(token.trim());
  };
  const error = signIn.error;

  return (
    <Box
      component="main"
      id="main"
      sx={{ display: 'grid', placeItems: 'center', minHeight: '100vh', p: 2 }}
    >
      <Paper
        component="form"
        onSubmit={submit}
        sx={{ p: 4, width: '100%', maxWidth: 460 }}
        aria-labelledby="sign-in-title"
      >
        <Typography id="sign-in-title" variant="h1" gutterBottom>
          {t('session.signInTitle')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('session.signInHelp')}
        </Typography>
        <TextField
          label={t('session.token')}
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => {
            setToken(e.target.value);
          }}
          fullWidth
          autoFocus
          required
          error={error !== null}
          helperText={t('session.tokenHelp')}
        />
        {error &&
          (isApiError(error) && error.status === 401 ? (
            <Alert severity="error" sx={{ mt: 2 }} role="alert">
              {t('session.tokenRejected')}
            </Alert>
          ) : (
            <ErrorAlert error={error} sx={{ mt: 2 }} />
          ))}
        <Button
          type="submit"
          variant="contained"
          sx={{ mt: 3 }}
          fullWidth
          disabled={signIn.isPending}
        >
          {t('session.signIn')}
        </Button>
      </Paper>
    </Box>
  );
}

/** The reasons the BFF names when a single sign-on did not happen (routes/api/session-oidc.ts). */
const SSO_FAILURES = [
  'provider_unavailable',
  'clock_skew',
  'signing_key',
  'access_denied',
  'expired',
  'not_trusted',
  'session_too_large',
  'provider_error',
] as const;
type SsoFailure = (typeof SSO_FAILURES)[number];
const isSsoFailure = (v: string | null): v is SsoFailure =>
  v !== null && (SSO_FAILURES as readonly string[]).includes(v);

/** OIDC mode: one button to the identity provider; a failed sign-in says why. */
function SsoSignIn({ next, failure }: { next: string; failure: string | null }) {
  const { t } = useI18n();
  const href = `/api/v1/session/oidc/login?next=${encodeURIComponent(next)}`;
  const known = failure === null ? undefined : isSsoFailure(failure) ? failure : 'provider_error';
  return (
    <Box
      component="main"
      id="main"
      sx={{ display: 'grid', placeItems: 'center', minHeight: '100vh', p: 2 }}
    >
      <Paper sx={{ p: 4, width: '100%', maxWidth: 460 }} aria-labelledby="sign-in-title">
        <Typography id="sign-in-title" variant="h1" gutterBottom>
          {t('session.signInTitle')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('session.ssoHelp')}
        </Typography>
        {known && (
          <Alert
            severity={known === 'access_denied' ? 'warning' : 'error'}
            sx={{ mb: 2 }}
            role="alert"
          >
            {t(`session.sso.${known}`)}
          </Alert>
        )}
        <Button href={href} variant="contained" fullWidth>
          {t('session.ssoSignIn')}
        </Button>
      </Paper>
    </Box>
  );
}

/** Only a path of this app, never another origin (an open redirect). */
function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}
