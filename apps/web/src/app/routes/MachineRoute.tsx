import { Alert, AlertTitle, Box, Button, Stack } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink, useParams } from '../../lib/routing';
import { FreshnessIndicator } from '../../components/FreshnessIndicator';
import { PageLoading } from '../../components/PageLoading';
import { ConditionsTable } from '../../features/conditions/components/ConditionsTable';
import { V1Beta2Conditions } from '../../features/conditions/components/V1Beta2Conditions';
import { useMachines } from '../../features/machines/api/get-machines';
import { MachineDetails } from '../../features/machines/components/MachineDetails';
import { MachineNode } from '../../features/machines/components/MachineNode';
import { ObjectEvents } from '../../features/events/components/ObjectEvents';
import { useI18n } from '../../i18n/context';
import { machineObjectRefs } from '../../lib/object-refs';
import { nodesPath } from '../../lib/paths';

const YamlDialog = lazy(() => import('../../features/objects/components/YamlDialog'));

/** Deep link of one machine: details, diagnosis (T-1), conditions (U-6), YAML. */
export function MachineRoute() {
  const { namespace = '', cluster = '', machine: name = '' } = useParams();
  const { t } = useI18n();
  const machines = useMachines(namespace, cluster);
  const [yaml, setYaml] = useState(false);
  const machine = machines.data?.find((m) => m.name === name);
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
      {machine.deletionStep && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="deletion-step">
          <AlertTitle>
            {t('machine.deletionStep', { reason: machine.deletionStep.reason })}
          </AlertTitle>
          {machine.deletionStep.message && (
            <Box component="span" sx={{ whiteSpace: 'pre-wrap' }}>
              {machine.deletionStep.message}
            </Box>
          )}
        </Alert>
      )}
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
      />
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
