import { validateCreateIpPool, type CreateIpPoolRequest, type IpPoolEntry } from '@dcs/domain';
import { Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from '../../../lib/routing';
import { useClusterContext } from '../../../api/get-cluster-context';
import { refusalText } from '../../../components/ActionButton';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useFieldIssues } from '../../../components/FieldIssues';
import { IpEntriesEditor } from '../../../components/IpEntriesEditor';
import { PageLoading } from '../../../components/PageLoading';
import { PlanFlowActions } from '../../../components/PlanFlowActions';
import { PlanPreview } from '../../../components/PlanPreview';
import { ProblemList } from '../../../components/ProblemList';
import { useI18n } from '../../../i18n/context';
import { errorsOf, issuesOutside } from '../../../lib/issues';
import { ipPoolPath, ipPoolsPath } from '../../../lib/paths';
import { providerGates } from '../../../lib/provider-gates';
import { usePlanFlow } from '../../../lib/use-plan-flow';
import { useCreateIpPool } from '../api/create-ip-pool';

/**
 * A standalone IP-hostname pool (R-POOL-1..3, R-NIC-*, R-DISK-*): its name and entries, checked
 * as they are edited, previewed as a plan, then created. Worker pools pick it later.
 */
export function CreateIpPoolPage({ namespace, cluster }: { namespace: string; cluster: string }) {
  const i18n = useI18n();
  const { t } = i18n;
  const navigate = useNavigate();
  const context = useClusterContext(namespace, cluster);
  const [name, setName] = useState('');
  const [entries, setEntries] = useState<IpPoolEntry[]>([]);
  // Messages appear once the user edited something or asked for the plan, not on a fresh form.
  const [touched, setTouched] = useState(false);
  const send = useCreateIpPool(namespace, cluster);
  const flow = usePlanFlow(send, () => {
    navigate(ipPoolPath(namespace, cluster, name));
  });
  const ctx = context.data?.validation;
  const req: CreateIpPoolRequest = { name, entries };
  const issues = ctx && touched ? validateCreateIpPool(req, ctx) : [];
  const at = useFieldIssues(issues);
  if (context.isPending) return <PageLoading />;
  if (context.isError) return <ErrorAlert error={context.error} />;
  const gates = providerGates(ctx?.providerVersion);
  const refused = context.data.permissions.createIpPool
    ? refusalText(context.data.permissions.createIpPool, i18n)
    : undefined;
  const reviewing = flow.stage === 'review' || flow.stage === 'applying';
  const cancel = () => {
    navigate(ipPoolsPath(namespace, cluster));
  };

  return (
    <Box component="section" aria-labelledby="create-ip-pool-title">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Button component={RouterLink} to={ipPoolsPath(namespace, cluster)}>
          ← {t('tabs.ipPools')}
        </Button>
        <Typography id="create-ip-pool-title" variant="h2">
          {t('ipPools.create')}
        </Typography>
      </Stack>
      {refused && <ErrorAlert error={new Error(refused)} sx={{ mb: 2 }} />}
      {reviewing && flow.plan ? (
        <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
          <PlanPreview plan={flow.plan} />
        </Paper>
      ) : (
        <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('ipPools.createHelp', { namespace })}
          </Typography>
          <TextField
            label={t('clusters.name')}
            value={name}
            required
            size="small"
            sx={{ mb: 2, minWidth: 320 }}
            onChange={(e) => {
              setTouched(true);
              setName(e.target.value);
            }}
            {...at('name')}
          />
          <IpEntriesEditor
            label={t('ipPools.entriesOf', { name: name || '…' })}
            entries={entries}
            onChange={(next) => {
              setTouched(true);
              setEntries(next);
            }}
            issues={issues}
            basePath="entries"
            persistentDisksAllowed={gates.persistentDisks}
          />
          {touched && entries.length === 0 && (
            <Typography variant="body2" color="error" sx={{ mt: 1 }}>
              {t('form.atLeastOne')}
            </Typography>
          )}
          <Box sx={{ mt: 1 }}>
            {/* What no field shows (an entry field shows its own): listed, never only counted. */}
            <ProblemList
              items={issuesOutside(issues, [
                'name',
                ...entries.map((_, i) => `entries.${String(i)}`),
              ])}
            />
          </Box>
        </Paper>
      )}
      <PlanFlowActions
        flow={flow}
        onCancel={cancel}
        onPreview={() => {
          setTouched(true);
          if (ctx && errorsOf(validateCreateIpPool(req, ctx)).length > 0) return;
          void flow.preview(req);
        }}
        applyLabel={t('ipPools.createApply')}
        previewDisabled={
          refused !== undefined || entries.length === 0 || (touched && errorsOf(issues).length > 0)
        }
      />
    </Box>
  );
}
