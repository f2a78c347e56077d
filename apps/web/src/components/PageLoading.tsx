import { Box, CircularProgress } from '@mui/material';
import { useI18n } from '../i18n/context';

export function PageLoading() {
  const { t } = useI18n();
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: 200 }}>
      <CircularProgress aria-label={t('common.loading')} />
    </Box>
  );
}
