import { Alert, AlertTitle, Box, Typography } from '@mui/material';
import { useI18n } from '../i18n/context';
import { PROVIDER_MIN_WEB_WORKFLOW, type ProviderGates } from '../lib/provider-gates';

/** R-VER-1 explained in place: below 1.0.13 the forms are off and the YAML workflow is shown. */
export function ProviderGateNotice({ gates }: { gates: ProviderGates }) {
  const { t } = useI18n();
  if (gates.webWorkflow) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} role="region" aria-label={t('gate.title')}>
      <AlertTitle>{t('gate.title')}</AlertTitle>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('gate.webWorkflow', { version: gates.version ?? '?', min: PROVIDER_MIN_WEB_WORKFLOW })}
      </Typography>
      <Typography variant="body2">{t('gate.yamlIntro')}</Typography>
      <Box component="ol" sx={{ my: 0.5, pl: 3, fontSize: 14 }}>
        <li>{t('gate.yamlStep1')}</li>
        <li>{t('gate.yamlStep2')}</li>
        <li>{t('gate.yamlStep3')}</li>
        <li>{t('gate.yamlStep4')}</li>
      </Box>
      <Box
        component="pre"
        sx={{
          fontSize: 12,
          m: 0,
          p: 1,
          bgcolor: 'action.hover',
          borderRadius: 1,
          overflowX: 'auto',
        }}
      >
        {
          'kubectl -n cpaas-system get machinedeployment,dcsmachinetemplate,kubeadmconfigtemplate,dcsiphostnamepool\nkubectl apply -f worker-pool.yaml'
        }
      </Box>
    </Alert>
  );
}
