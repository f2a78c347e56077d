import MoreVert from '@mui/icons-material/MoreVert';
import { IconButton, ListItemText, Menu, MenuItem } from '@mui/material';
import type { NodePoolView } from '@dcs/domain';
import { useId, useState } from 'react';
import { Link as RouterLink } from '../../../lib/routing';
import type { Permission } from '../../../api/get-cluster-context';
import { refusalText } from '../../../components/refusal-text';
import { useI18n } from '../../../i18n/context';
import { apiUrl, seg } from '../../../lib/api-client';
import { poolPath } from '../../../lib/paths';

/**
 * Less frequent things: the pool's page (machines, events), its YAML, the support export,
 * pausing or resuming Cluster API's reconciliation of the pool (O-PAUSE / O-RESUME, issue 26),
 * and a rollout restart of its machines (O-RESTART): offered to a viewer too, inert, with the
 * access review's refusal (or another reason, such as a gated console) written under them.
 */
export function PoolMoreMenu({
  pool,
  onYaml,
  onPause,
  pausePermission,
  onRestart,
  restartPermission,
  restartBlocked,
}: {
  pool: NodePoolView;
  onYaml: () => void;
  onPause?: () => void;
  pausePermission?: Permission | undefined;
  onRestart?: () => void;
  restartPermission?: Permission | undefined;
  /** Another reason a restart is refused now (the console is gated, the pool is being deleted). */
  restartBlocked?: string | undefined;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const pauseRefused =
    pausePermission === undefined ? undefined : refusalText(pausePermission, i18n);
  const pauseInert = pausePermission === undefined || pauseRefused !== undefined;
  const restartRefused =
    restartBlocked ??
    (restartPermission === undefined ? undefined : refusalText(restartPermission, i18n));
  const restartInert = restartPermission === undefined || restartRefused !== undefined;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  const close = () => {
    setAnchor(null);
  };
  const diagnostics = apiUrl(
    `/clusters/${seg(pool.namespace)}/${seg(pool.cluster)}/nodepools/${seg(pool.id)}/diagnostics`,
  );
  return (
    <>
      <IconButton
        size="small"
        aria-label={t('pool.more', {
          name: pool.kind === 'control-plane' ? t('pool.controlPlane') : pool.name,
        })}
        aria-haspopup="menu"
        aria-controls={anchor ? id : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => {
          setAnchor(e.currentTarget);
        }}
      >
        <MoreVert />
      </IconButton>
      <Menu id={id} anchorEl={anchor} open={anchor !== null} onClose={close}>
        <MenuItem
          component={RouterLink}
          to={poolPath(pool.namespace, pool.cluster, pool.id)}
          onClick={close}
        >
          {t('pool.openDetails')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            onYaml();
          }}
        >
          {t('action.viewYaml')}
        </MenuItem>
        <MenuItem component="a" href={diagnostics} download onClick={close}>
          {t('action.exportDiagnostics')}
        </MenuItem>
        {onPause && (
          <MenuItem
            aria-disabled={pauseInert ? 'true' : undefined}
            sx={pauseInert ? { opacity: 0.6, cursor: 'not-allowed' } : undefined}
            onClick={() => {
              if (pauseInert) return;
              close();
              onPause();
            }}
          >
            <ListItemText
              primary={t(pool.pause.byAnnotation ? 'pause.actionResume' : 'pause.actionPause')}
              secondary={pauseRefused}
            />
          </MenuItem>
        )}
        {onRestart && (
          <MenuItem
            aria-disabled={restartInert ? 'true' : undefined}
            sx={restartInert ? { opacity: 0.6, cursor: 'not-allowed' } : undefined}
            onClick={() => {
              if (restartInert) return;
              close();
              onRestart();
            }}
          >
            <ListItemText primary={t('restart.action')} secondary={restartRefused} />
          </MenuItem>
        )}
      </Menu>
    </>
  );
}
