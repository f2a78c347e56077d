import AccountCircle from '@mui/icons-material/AccountCircle';
import { Box, Button, Chip, Divider, MenuItem, Typography } from '@mui/material';
import { LazyMenu, preloadMenu } from '../../../components/LazyMenu';
import { useId, useState, type ReactNode } from 'react';
import { useI18n } from '../../../i18n/context';
import { useSession, type SsoClaims } from '../api/get-session';
import { useSignOut } from '../api/sign-out';

/** Who you are, how you signed in, what you may do; sign out (token mode). */
export function SessionMenu({ rights }: { rights?: ReactNode }) {
  const { t } = useI18n();
  const session = useSession();
  const signOut = useSignOut();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const s = session.data;
  if (!s?.authenticated) return null;
  // Only a name the API server confirmed is shown (issue 25): while it cannot say, "unknown".
  const name =
    s.user?.confirmed === false
      ? t('session.identityUnknown')
      : (s.user?.name ?? t('session.kubeconfigUser'));

  return (
    <>
      <Button
        color="inherit"
        startIcon={<AccountCircle />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        aria-label={t('session.menu', { name })}
        onPointerEnter={preloadMenu}
        onFocus={preloadMenu}
        onClick={(e) => {
          setAnchor(e.currentTarget);
        }}
        sx={{ textTransform: 'none', maxWidth: 240 }}
      >
        <Box
          component="span"
          sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        >
          {name}
        </Box>
      </Button>
      <LazyMenu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => {
          setAnchor(null);
        }}
      >
        <Box sx={{ px: 2, py: 1, maxWidth: 360 }}>
          <Typography variant="subtitle2">{t('session.signedInAs')}</Typography>
          <Typography sx={{ wordBreak: 'break-all' }}>{name}</Typography>
          {s.user?.confirmed === false && (
            <Typography variant="body2" color="warning.main" sx={{ mt: 1 }}>
              {t('session.identityUnknownHelp')}
            </Typography>
          )}
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {s.authMode === 'local'
              ? t('session.modeLocal')
              : s.authMode === 'oidc'
                ? t('session.modeOidc')
                : t('session.modeToken')}
          </Typography>
          {s.user?.sso && <SsoClaimsList sso={s.user.sso} />}
          {s.user && s.user.groups.length > 0 && (
            <Box
              sx={{ mt: 1, display: 'flex', flexWrap: 'wrap', gap: 0.5 }}
              aria-label={t('session.groups')}
            >
              {s.user.groups.map((g) => (
                <Chip key={g} size="small" label={g} />
              ))}
            </Box>
          )}
          {rights}
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('session.rightsHelp')}
          </Typography>
        </Box>
        {s.authMode !== 'local' && <Divider />}
        {s.authMode === 'oidc' && (
          <MenuItem component="a" href="/api/v1/session/kubeconfig" download="kubeconfig-oidc.yaml">
            {t('session.downloadKubeconfig')}
          </MenuItem>
        )}
        {s.authMode !== 'local' && (
          <MenuItem
            onClick={() => {
              setAnchor(null);
              signOut.mutate();
            }}
          >
            {t('session.signOut')}
          </MenuItem>
        )}
      </LazyMenu>
    </>
  );
}

/** The provider's claims and how the API server maps them to the user above (OIDC mode). */
function SsoClaimsList({ sso }: { sso: SsoClaims }) {
  const { t } = useI18n();
  const rows: [string, string][] = [
    [t('session.ssoIssuer'), sso.issuer],
    [t('session.ssoSubject'), sso.subject],
    ...(sso.name ? [[t('session.ssoName'), sso.name] as [string, string]] : []),
    [
      t('session.ssoUsernameClaim', { claim: sso.usernameClaim }),
      `${sso.usernameClaimValue ?? '—'}${sso.usernamePrefix ? ` (${t('session.ssoPrefix', { prefix: sso.usernamePrefix })})` : ''}`,
    ],
    ...(sso.groupsClaim
      ? [
          [
            t('session.ssoGroupsClaim', { claim: sso.groupsClaim }),
            `${sso.groupsClaimValues.join(', ') || '—'}${sso.groupsPrefix ? ` (${t('session.ssoPrefix', { prefix: sso.groupsPrefix })})` : ''}`,
          ] as [string, string],
        ]
      : []),
  ];
  return (
    <Box component="dl" aria-label={t('session.ssoClaims')} sx={{ mt: 1, mb: 0 }}>
      {rows.map(([k, v]) => (
        <Box key={k} sx={{ display: 'flex', gap: 1 }}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ flexShrink: 0 }}>
            {k}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-all' }}>
            {v}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
