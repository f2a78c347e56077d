import type { MachineView, NodePoolView } from '@dcs/domain';
import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import type { PoolAction } from '../../features/node-pools/components/pool-actions';

// Type-only: the dialog itself is loaded on first use.
import type { OpenDialog } from './PoolActionDialog';

const PoolActionDialog = lazy(() => import('./PoolActionDialog'));

/** The dialogs that cards and tables open, owned by the page (features never import each other). */
export function usePoolDialogs(
  namespace: string,
  cluster: string,
): {
  onAction: (action: PoolAction, pool: NodePoolView) => void;
  onDeleteMachines: (poolId: string, machines: MachineView[]) => void;
  dialog: ReactNode;
} {
  const [open, setOpen] = useState<OpenDialog | undefined>();
  const onAction = useCallback((action: PoolAction, pool: NodePoolView) => {
    setOpen({ action, pool });
  }, []);
  const onDeleteMachines = useCallback((poolId: string, machines: MachineView[]) => {
    setOpen({ action: 'deleteMachines', poolId, machines });
  }, []);
  const dialog = open ? (
    <Suspense fallback={null}>
      <PoolActionDialog
        namespace={namespace}
        cluster={cluster}
        open={open}
        onClose={() => {
          setOpen(undefined);
        }}
      />
    </Suspense>
  ) : null;
  return { onAction, onDeleteMachines, dialog };
}
