import type { NodePoolView } from '@dcs/domain';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useParams } from 'react-router';
import type { PoolAction } from '../../features/node-pools/components/pool-actions';
import { NodePoolsTab } from '../../features/node-pools/components/NodePoolsTab';

const PoolActionDialog = lazy(() => import('./PoolActionDialog'));

/** The Node Pools tab and the dialogs its cards open (loaded when first needed). */
export function NodePoolsRoute() {
  const { namespace = '', cluster = '' } = useParams();
  const [open, setOpen] = useState<{ action: PoolAction; pool: NodePoolView } | undefined>();
  const onAction = useCallback((action: PoolAction, pool: NodePoolView) => {
    setOpen({ action, pool });
  }, []);
  return (
    <>
      <NodePoolsTab namespace={namespace} cluster={cluster} onAction={onAction} />
      {open && (
        <Suspense fallback={null}>
          <PoolActionDialog
            namespace={namespace}
            cluster={cluster}
            action={open.action}
            pool={open.pool}
            onClose={() => {
              setOpen(undefined);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
