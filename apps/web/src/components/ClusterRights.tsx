import { Box, Typography } from '@mui/material';
import { useMatch } from '../lib/routing';
import { useClusterContext, type Action } from '../api/get-cluster-context';
import { useI18n } from '../i18n/context';
import { refusalText } from './refusal-text';

const SHOWN = [
  'createPool',
  'scalePool',
  'upgradePool',
  'deletePool',
  'editStrategy',
  'upgradeControlPlane',
  'createIpPool',
  'editIpPool',
  'pauseCluster',
  'restartPool',
] as const satisfies readonly Action[];

/** The user's rights in the cluster on screen, as the BFF's access reviews decided them. */
export function ClusterRights() {
  const match = useMatch('/clusters/:namespace/:cluster/*?');
  const namespace = match?.namespace ?? '';
  const cluster = match?.cluster ?? '';
  return match ? <Rights namespace={namespace} cluster={cluster} /> : null;
}

function Rights({ namespace, cluster }: { namespace: string; cluster: string }) {
  const i18n = useI18n();
  const { t } = i18n;
  const context = useClusterContext(namespace, cluster);
  const p = context.data?.permissions;
  if (!p) return null;
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="subtitle2">{t('session.rights', { cluster })}</Typography>
      <Box component="ul" sx={{ m: 0, pl: 2, fontSize: 13 }}>
        {SHOWN.map((a) => {
          const right = p[a];
          const why = right ? refusalText(right, i18n) : undefined;
          return (
            <li key={a}>
              {t(`right.${a}`)}: {right?.allowed ? t('session.allowed') : t('session.denied')}
              {why && (
                <Typography component="span" variant="caption" sx={{ display: 'block' }}>
                  {why}
                </Typography>
              )}
            </li>
          );
        })}
      </Box>
    </Box>
  );
}
