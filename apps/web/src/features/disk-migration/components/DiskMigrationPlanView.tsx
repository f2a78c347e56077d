import type { DiskMigrationPlan, MigrationStep } from '@dcs/domain';
import { Alert, AlertTitle, Box, Chip, Link, Stack, Typography } from '@mui/material';
import { useId } from 'react';
import { Link as RouterLink } from '../../../lib/routing';
import { CodeBlock } from '../../../components/PlanPreview';
import { ProblemList } from '../../../components/ProblemList';
import { useI18n } from '../../../i18n/context';
import type { MessageKey } from '../../../i18n/en';
import { ipPoolPath } from '../../../lib/paths';

const statusColor = { done: 'success', todo: 'primary', blocked: 'default' } as const;

/** Where in the console each step's operation is (the planner names only the three). */
const operationAction: Partial<Record<string, MessageKey>> = {
  'O-EDIT-STRATEGY': 'migration.op.O-EDIT-STRATEGY',
  'O-EDIT-IP-POOL': 'migration.op.O-EDIT-IP-POOL',
  'O-UPGRADE-INFRA': 'migration.op.O-UPGRADE-INFRA',
};

/**
 * R-DISK-5: the migration plan of a worker pool from the legacy disk layout, as the BFF made it
 * (domain's planDiskMigration): the steps in order, each with the objects it changes, the console
 * operation that carries it out, what happens to machines and data, what the documents leave
 * open (said, not guessed) and its kubectl equivalent, copyable. Read-only: the page writes
 * nothing, and says so first, because the steps must not run as one (R-DISK-2: the disks cannot
 * be taken back; the rolling update deletes each VM's old /var/cpaas).
 */
export function DiskMigrationPlanView({
  plan,
  cluster,
}: {
  plan: DiskMigrationPlan;
  cluster: string;
}) {
  const { t, localize } = useI18n();
  const stepsId = useId();
  return (
    <Stack spacing={2}>
      <Typography variant="h2">{t('migration.title', { name: plan.pool })}</Typography>
      <Typography>{t('migration.intro')}</Typography>
      <Alert severity="info">
        <AlertTitle>{t('migration.readOnlyTitle')}</AlertTitle>
        {localize(plan.readOnlyReason)}
      </Alert>
      {!plan.legacy && (
        <Alert severity="success">{t('migration.notLegacy', { name: plan.pool })}</Alert>
      )}
      <Box component="section" aria-labelledby={stepsId}>
        <Typography id={stepsId} variant="h3" component="h3" sx={{ mb: 1 }}>
          {t('migration.steps')}
        </Typography>
        <Stack component="ol" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {plan.steps.map((step, i) => (
            <li key={step.id}>
              <StepView step={step} n={i + 1} namespace={plan.namespace} cluster={cluster} />
            </li>
          ))}
        </Stack>
      </Box>
    </Stack>
  );
}

function StepView({
  step,
  n,
  namespace,
  cluster,
}: {
  step: MigrationStep;
  n: number;
  namespace: string;
  cluster: string;
}) {
  const { t, localize } = useI18n();
  const headingId = useId();
  const ipPool = step.objects.find((o) => o.kind === 'DCSIpHostnamePool')?.name;
  const action = step.operation ? operationAction[step.operation] : undefined;
  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        p: 2,
      }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <Typography id={headingId} variant="h4" component="h4" sx={{ mr: 'auto' }}>
          {t('migration.stepHeading', { n, title: t(`migration.step.${step.id}`) })}
        </Typography>
        <Chip
          size="small"
          color={statusColor[step.status]}
          variant={step.status === 'todo' ? 'filled' : 'outlined'}
          label={t(`migration.status.${step.status}`)}
        />
      </Stack>
      <Typography sx={{ mb: 1 }}>{localize(step.title)}</Typography>
      {step.issues.length > 0 && (
        <Box sx={{ mb: 1 }}>
          <ProblemList items={step.issues} />
        </Box>
      )}
      <Typography variant="subtitle2" component="h5">
        {t('migration.objects')}
      </Typography>
      {step.objects.length > 0 ? (
        <Box component="ul" sx={{ mt: 0.5, mb: 1, pl: 3 }}>
          {step.objects.map((o) => (
            <li key={`${o.kind}/${o.name}`}>
              <code>
                {o.kind} {o.name}
              </code>
            </li>
          ))}
        </Box>
      ) : (
        <Typography variant="body2" sx={{ mb: 1 }}>
          {t('migration.noObjects')}
        </Typography>
      )}
      {step.operation && action && (
        <Typography variant="body2" sx={{ mb: 1 }}>
          {t('migration.operation', {
            operation: step.operation,
            action: t(action, { pool: ipPool ?? '' }),
          })}
          {ipPool && step.operation === 'O-EDIT-IP-POOL' && (
            <>
              {' '}
              <Link component={RouterLink} to={ipPoolPath(namespace, cluster, ipPool)}>
                {ipPool}
              </Link>
            </>
          )}
        </Typography>
      )}
      {step.effects.length > 0 && (
        <>
          <Typography variant="subtitle2" component="h5">
            {t('migration.effects')}
          </Typography>
          <Box component="ul" sx={{ mt: 0.5, mb: 1, pl: 3 }}>
            {step.effects.map((m) => (
              <Typography component="li" variant="body2" key={m.messageKey}>
                {localize(m)}
              </Typography>
            ))}
          </Box>
        </>
      )}
      {step.unsettled.length > 0 && (
        <Box sx={{ mb: 1 }}>
          <Typography variant="subtitle2" component="h5">
            {t('migration.unsettled')}
          </Typography>
          <Stack component="ul" spacing={0.5} sx={{ listStyle: 'none', p: 0, mt: 0.5, mb: 0 }}>
            {step.unsettled.map((m) => (
              <li key={m.messageKey}>
                <Alert severity="warning" sx={{ py: 0 }}>
                  {localize(m)}
                </Alert>
              </li>
            ))}
          </Stack>
        </Box>
      )}
      <Typography variant="subtitle2" component="h5">
        {t('migration.kubectl')}
      </Typography>
      {step.kubectl.length > 0 ? (
        <CodeBlock
          text={step.kubectl.join('\n\n')}
          label={t('migration.kubectlOf', { n })}
          copyLabel={t('migration.copy', { n })}
        />
      ) : (
        <Typography variant="body2">{t('migration.nothingToRun')}</Typography>
      )}
    </Box>
  );
}
