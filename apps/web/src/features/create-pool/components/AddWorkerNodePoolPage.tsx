import type { CreatePoolRequest, CreatePoolRequestInput, RuleIssue } from '@dcs/domain';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Link,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useEffect, useMemo, useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from '../../../lib/routing';
import { useClusterContext, type ClusterContext } from '../../../api/get-cluster-context';
import { refusalText } from '../../../components/ActionButton';
import { PageLoading } from '../../../components/PageLoading';
import { PlanPreview } from '../../../components/PlanPreview';
import { focusFirstProblem, IssueScope, UnshownIssues } from '../../../components/IssueSummary';
import { ProviderGateNotice } from '../../../components/ProviderGateNotice';
import { ConflictNotice } from '../../../components/ConflictNotice';
import { useI18n } from '../../../i18n/context';
import { isApiError } from '../../../lib/api-client';
import { poolPath, poolsPath } from '../../../lib/paths';
import { providerGates } from '../../../lib/provider-gates';
import { usePlanFlow } from '../../../lib/use-plan-flow';
import { canExecute } from '@dcs/domain';
import { useCreatePool } from '../api/create-pool';
import { BasicsSection } from './BasicsSection';
import { BootstrapSection } from './BootstrapSection';
import { defaultValues } from './form-defaults';
import { IpPoolSection } from './IpPoolSection';
import { createPoolResolver } from './pool-resolver';
import { StrategySection } from './StrategySection';
import { TemplateSection } from './TemplateSection';
import { liveIssues } from './use-live-issues';
import { markedPaths, visibleIssues } from './visible-issues';
import { ErrorAlert } from '../../../components/ErrorAlert';

/** U-4: Add Worker Node Pool. */
export function AddWorkerNodePoolPage({
  namespace,
  cluster,
}: {
  namespace: string;
  cluster: string;
}) {
  const context = useClusterContext(namespace, cluster);
  if (context.isPending) return <PageLoading />;
  if (context.isError) return <ErrorAlert error={context.error} />;
  return <AddPoolForm namespace={namespace} cluster={cluster} context={context.data} />;
}

function AddPoolForm({
  namespace,
  cluster,
  context,
}: {
  namespace: string;
  cluster: string;
  context: ClusterContext;
}) {
  const i18n = useI18n();
  const { t, localize } = i18n;
  const navigate = useNavigate();
  const ctx = context.validation;
  const ctxRef = useRef(ctx);
  const formRef = useRef<HTMLFormElement>(null);
  ctxRef.current = ctx;
  const initial = useMemo(() => defaultValues(ctx), [ctx]);
  const form = useForm<CreatePoolRequestInput, unknown, CreatePoolRequest>({
    defaultValues: initial,
    mode: 'onChange',
    resolver: createPoolResolver(() => ctxRef.current, localize),
  });
  const values = useWatch({ control: form.control }) as CreatePoolRequestInput;
  const allIssues: RuleIssue[] = useMemo(() => liveIssues(values, ctx), [values, ctx]);
  // A rule's message appears at a field once the user edited or left it, every one after a submit.
  const { touchedFields, dirtyFields, submitCount } = form.formState;
  const issues = visibleIssues(allIssues, {
    submitted: submitCount > 0,
    edited: [...markedPaths(touchedFields), ...markedPaths(dirtyFields)],
  });
  const send = useCreatePool(namespace, cluster);
  const flow = usePlanFlow(send, () => {
    navigate(poolPath(namespace, cluster, form.getValues('name')));
  });
  const gates = providerGates(ctx.providerVersion);
  const allowed = context.permissions.createPool?.allowed !== false;

  // Server errors land on their fields (the BFF's details are RuleIssues with request paths).
  useEffect(() => {
    const e = flow.error;
    if (!isApiError(e)) return;
    for (const d of e.details)
      if (d.path !== '') form.setError(d.path as 'name', { type: d.rule, message: localize(d) });
  }, [flow.error, form, localize]);

  const serverIssues = isApiError(flow.error) ? flow.error.details : [];
  const shownIssues = [
    ...issues,
    ...serverIssues.filter(
      (d) => !issues.some((i) => i.path === d.path && i.messageKey === d.messageKey),
    ),
  ];
  const reviewing = flow.stage === 'review' || flow.stage === 'applying';
  const busy = flow.stage === 'previewing' || flow.stage === 'applying';
  const errorCount = shownIssues.filter((i) => i.severity === 'error').length;
  const anyError = allIssues.some((i) => i.severity === 'error');

  return (
    <Box component="section" aria-labelledby="add-pool-title">
      <Stack direction="row" sx={{ alignItems: 'center', mb: 2 }}>
        <Typography id="add-pool-title" variant="h2" sx={{ mr: 'auto' }}>
          {t('action.addWorkerNodePool')}
        </Typography>
        <Button component={RouterLink} to={poolsPath(namespace, cluster)}>
          {t('common.cancel')}
        </Button>
      </Stack>
      <ProviderGateNotice gates={gates} />
      {!allowed && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {context.permissions.createPool && refusalText(context.permissions.createPool, i18n)}
        </Alert>
      )}
      {reviewing && flow.plan ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <PlanPreview plan={flow.plan} />
          {flow.conflict && (
            <ConflictNotice
              conflict={flow.conflict}
              onReapply={() => {
                void flow.preview(form.getValues() as CreatePoolRequest);
              }}
            />
          )}
          {flow.error && !flow.conflict && <ErrorAlert error={flow.error} sx={{ mt: 2 }} />}
          <Stack
            direction="row"
            spacing={1}
            sx={{ mt: 2, justifyContent: 'flex-end', alignItems: 'center' }}
          >
            {busy && <CircularProgress size={20} aria-label={t('common.loading')} />}
            <Button onClick={flow.back} disabled={busy}>
              {t('create.backToForm')}
            </Button>
            <Button
              variant="contained"
              disabled={busy || !canExecute(flow.plan)}
              onClick={() => {
                void flow.apply();
              }}
            >
              {t('create.apply')}
            </Button>
          </Stack>
        </Paper>
      ) : (
        <IssueScope>
          <Box
            component="form"
            ref={formRef}
            noValidate
            onSubmit={(e) => {
              void form.handleSubmit((data) => flow.preview(data))(e);
            }}
          >
            <Stack spacing={2}>
              <BasicsSection form={form} issues={shownIssues} ctx={ctx} />
              <TemplateSection form={form} issues={shownIssues} ctx={ctx} />
              <BootstrapSection form={form} issues={shownIssues} ctx={ctx} />
              <IpPoolSection
                form={form}
                issues={shownIssues}
                ctx={ctx}
                persistentDisks={gates.persistentDisks}
              />
              <StrategySection form={form} issues={shownIssues} />
              {/* Every counted problem is at a field or here: the issues no field shows. */}
              <UnshownIssues issues={shownIssues} />
              {flow.error && !flow.conflict && (
                // The reasons are at their fields and in the list above.
                <ErrorAlert error={flow.error} details={false} />
              )}
              <Stack
                direction="row"
                spacing={1}
                sx={{ justifyContent: 'flex-end', alignItems: 'center' }}
              >
                <Typography
                  variant="body2"
                  color={errorCount > 0 ? 'error' : 'text.secondary'}
                  role="status"
                  sx={{ mr: 'auto' }}
                >
                  {errorCount > 0 ? (
                    // Leads to the first problem: a field, or the list of those no field shows.
                    <Link
                      component="button"
                      type="button"
                      color="error"
                      variant="body2"
                      onClick={() => {
                        focusFirstProblem(formRef.current);
                      }}
                    >
                      {t('create.errorCount', { count: errorCount })}
                    </Link>
                  ) : anyError ? (
                    t('create.fillIn')
                  ) : (
                    t('create.ready')
                  )}
                </Typography>
                {busy && <CircularProgress size={20} aria-label={t('common.loading')} />}
                <Button
                  type="submit"
                  variant="contained"
                  disabled={busy || !gates.webWorkflow || !allowed}
                >
                  {t('create.preview')}
                </Button>
              </Stack>
            </Stack>
          </Box>
        </IssueScope>
      )}
    </Box>
  );
}
