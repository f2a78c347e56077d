import { Alert, Box, Button, Stack } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink, useParams } from '../../lib/routing';
import { FreshnessIndicator } from '../../components/FreshnessIndicator';
import { PageLoading } from '../../components/PageLoading';
import { ConditionsTable } from '../../features/conditions/components/ConditionsTable';
import { V1Beta2Conditions } from '../../features/conditions/components/V1Beta2Conditions';
import { useClusterContext } from '../../api/get-cluster-context';
import { useMachines } from '../../features/machines/api/get-machines';
import { DeletionPanel } from '../../features/machines/components/DeletionPanel';
import { MachineDetails } from '../../features/machines/components/MachineDetails';
import { MachineNode } from '../../features/machines/components/MachineNode';
import { ObjectEvents } from '../../features/events/components/ObjectEvents';
import { useI18n } from '../../i18n/context';
import { machineObjectRefs } from '../../lib/object-refs';
import { nodesPath } from '../../lib/paths';
import { providerGates } from '../../lib/provider-gates';
import { useNodePools } from '../../features/node-pools/api/get-node-pools';
import { usePoolDialogs } from './usePoolDialogs';

const YamlDialog = lazy(() => import('../../features/objects/components/YamlDialog'));

/**
 * Deep link of one machine: its deletion (issue 26 item 6), details, diagnosis (T-1), conditions
 * (U-6), YAML.
 */
export function MachineRoute() {
  const { namespace = '', cluster = '', machine: name = '' } = useParams();
  const { t } = useI18n();
  const machines = useMachines(namespace, cluster);
  const [yaml, setYaml] = useState(false);
  const pools = useNodePools(namespace, cluster);
  const context = useClusterContext(namespace, cluster);
  const { onAction, dialog } = usePoolDialogs(namespace, cluster);
  const machine = machines.data?.find((m) => m.name === name);
  const pool = pools.data?.find((p) => p.id === machine?.poolId);
  const gates = providerGates(context.data?.validation.providerVersion);
  const blockedReason = !gates.webWorkflow
    ? t('gate.short', { version: gates.version ?? '?' })
    : pool?.status === 'Deleting'
      ? t('pool.isDeleting')
      : undefined;
  if (machines.isPending) return <PageLoading />;
  if (!machine) return <Alert severity="warning">{t('machine.notFound', { name })}</Alert>;
  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Button component={RouterLink} to={nodesPath(namespace, cluster)}>
          ← {t('tabs.nodes')}
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        <FreshnessIndicator />
        <Button
          variant="outlined"
          onClick={() => {
            setYaml(true);
          }}
        >
          {t('action.viewYaml')}
        </Button>
      </Stack>
      <DeletionPanel
        machine={machine}
        pool={pool}
        permission={context.data?.permissions.editStrategy}
        blockedReason={blockedReason}
        onEditDrainTimeout={(p) => {
          onAction('editStrategy', p);
        }}
      />
      <MachineDetails machine={machine} />
      <ConditionsTable
        conditions={machine.conditions}
        object={{ kind: 'Machine', name: machine.name }}
        title={t('conditions.ofObject', { kind: 'Machine', name: machine.name })}
      />
      <V1Beta2Conditions
        conditions={machine.v1beta2Conditions}
        kind="Machine"
        name={machine.name}
      />
      {machine.dcsMachineName && machine.infrastructureConditions && (
        <ConditionsTable
          conditions={machine.infrastructureConditions}
          object={{ kind: 'DCSMachine', name: machine.dcsMachineName }}
          title={t('conditions.ofObject', { kind: 'DCSMachine', name: machine.dcsMachineName })}
        />
      )}
      {/* Issue 12: the workload cluster's Node, next to the Machine's and DCSMachine's conditions. */}
      <MachineNode
        namespace={namespace}
        cluster={cluster}
        machine={machine}
        renderConditions={(node) => (
          <ConditionsTable
            conditions={node.conditions}
            object={{ kind: 'Node', name: node.name }}
            title={t('conditions.ofObject', { kind: 'Node', name: node.name })}
            headingLevel="h4"
          />
        )}
      />
      {/* Issue 26: the Events of the machine and of its infrastructure. */}
      <ObjectEvents
        namespace={namespace}
        source={{ objects: machineObjectRefs(machine).map((r) => `${r.kind}/${r.name}`) }}
        follow={machine}
      />
      {dialog}
      {yaml && (
        <Suspense fallback={null}>
          <YamlDialog
            namespace={namespace}
            objects={machineObjectRefs(machine)}
            title={t('yaml.title', { name: machine.name })}
            onClose={() => {
              setYaml(false);
            }}
          />
        </Suspense>
      )}
    </Box>
  );
}
