import { AppBar, Box, Link, Toolbar, Typography } from '@mui/material';
import { Suspense, type ReactNode } from 'react';
import { ClusterRights } from '../components/ClusterRights';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { PageLoading } from '../components/PageLoading';
import { ThemeSwitch } from '../components/ThemeSwitch';
import { SessionMenu } from '../features/session/components/SessionMenu';
import { useI18n } from '../i18n/context';
import { Link as RouterLink } from '../lib/routing';

/** The frame of every signed-in screen: a skip link, the bar, and the page. */
export function AppLayout({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  return (
    <>
      <Link
        href="#main"
        sx={{
          position: 'absolute',
          left: 8,
          top: -48,
          zIndex: 2000,
          bgcolor: 'background.paper',
          p: 1,
          '&:focus': { top: 8 },
        }}
      >
        {t('shell.skipToContent')}
      </Link>
      <AppBar position="sticky" elevation={0}>
        <Toolbar variant="dense" sx={{ gap: 1 }}>
          <Typography variant="h6" component="p" sx={{ flexGrow: 1, fontWeight: 600 }}>
            <Link component={RouterLink} to="/" color="inherit" underline="none">
              {t('shell.title')}
            </Link>
          </Typography>
          <LanguageSwitch />
          <ThemeSwitch />
          <SessionMenu rights={<ClusterRights />} />
        </Toolbar>
      </AppBar>
      <Box
        component="main"
        id="main"
        tabIndex={-1}
        sx={{ px: { xs: 2, md: 3 }, py: 2, maxWidth: 1600, mx: 'auto', outline: 'none' }}
      >
        <Suspense fallback={<PageLoading />}>{children}</Suspense>
      </Box>
    </>
  );
}
