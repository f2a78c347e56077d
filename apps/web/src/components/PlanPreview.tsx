import type { FieldChange, ObjectDiff, Plan, RestartEffect, StepVerdict } from '@dcs/domain';
import ExpandMore from '@mui/icons-material/ExpandMore';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  Box,
  Button,
  Chip,
  Stack,
  Typography,
} from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { useI18n } from '../i18n/context';
import { ProblemList } from './ProblemList';

/**
 * The Plan of a change before it is applied: rule issues, what it will do to machines, each
 * step in order, each object's diff (fields and YAML), and the kubectl equivalents, the same
 * plan the BFF executes.
 */
export function PlanPreview({ plan }: { plan: Plan }) {
  const { t, localize } = useI18n();
  const e = plan.effects;
  return (
    <Box aria-label={t('plan.title')} role="region">
      <Typography variant="h3" component="h3" sx={{ mb: 1 }}>
        {t('plan.title')} <Chip size="small" label={plan.operation} sx={{ ml: 1 }} />
      </Typography>
      {plan.issues.length > 0 && (
        <Box sx={{ mb: 2 }}>
          <ProblemList items={plan.issues} />
        </Box>
      )}
      {plan.verdict && <VerdictSummary plan={plan} />}
      <Stack spacing={0.5} sx={{ mb: 2 }}>
        {e.replicas && (
          <Typography>
            {t('plan.replicas', { from: e.replicas.from, to: e.replicas.to })}
          </Typography>
        )}
        {e.rollout && (
          <Typography>
            {t('plan.rollout', { replaces: e.rollout.replaces, atATime: e.rollout.atATime })}
          </Typography>
        )}
        {e.machinesDeleted && e.machinesDeleted.length > 0 && (
          <Typography>
            {t('plan.machinesDeleted', { count: e.machinesDeleted.length })}{' '}
            {e.machinesDeleted.join(', ')}
          </Typography>
        )}
        {e.created && e.created.length > 0 && (
          <Typography>
            {t('plan.created', { objects: e.created.map((c) => `${c.kind} ${c.name}`).join(', ') })}
          </Typography>
        )}
        {e.notes?.map((n) => (
          <Alert key={n.messageKey} severity="info" sx={{ py: 0 }}>
            {localize(n)}
          </Alert>
        ))}
      </Stack>
      {e.restart && <RestartOrder restart={e.restart} />}
      <Typography variant="h4" component="h4">
        {t('plan.steps')}
      </Typography>
      <Box component="ol" sx={{ mt: 0.5, pl: 3 }}>
        {plan.steps.map((s, i) => (
          <li key={`${s.verb}-${s.kind}-${s.name}-${i}`}>
            <Typography variant="body2" component="div">
              <Chip
                size="small"
                variant="outlined"
                label={t(`plan.change.${s.verb}`)}
                sx={{ mr: 1 }}
              />
              {localize(s.description)}
            </Typography>
            {s.verb === 'delete' && s.irreversible && (
              <Typography variant="caption" color="text.secondary">
                {localize(s.irreversible)}
              </Typography>
            )}
            {plan.verdict?.steps[i] && <StepVerdictView verdict={plan.verdict.steps[i]} />}
          </li>
        ))}
      </Box>
      {plan.diffs.map((d) => (
        <DiffView key={`${d.kind}/${d.name}`} diff={d} />
      ))}
      <Accordion disableGutters variant="outlined" sx={{ mt: 1 }}>
        <AccordionSummary expandIcon={<ExpandMore />}>
          <Typography>{t('plan.kubectl')}</Typography>
        </AccordionSummary>
        <AccordionDetails>
          <CodeBlock text={plan.kubectl.join('\n\n')} label={t('plan.kubectl')} />
        </AccordionDetails>
      </Accordion>
    </Box>
  );
}

/**
 * O-RESTART: the machines a rollout restart replaces, step by step in the order Cluster API
 * takes them (each step's new machines available before the next), or, with OnDelete, the
 * machines that are replaced as they are deleted.
 */
function RestartOrder({ restart }: { restart: RestartEffect }) {
  const { t } = useI18n();
  const headingId = useId();
  const names = (list: readonly string[]) => list.join(', ');
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="h4" component="h4" id={headingId}>
        {t('restart.plan.title', { count: restart.machines.length })}
      </Typography>
      {restart.order === 'OnDelete' || restart.steps.length === 0 ? (
        <Typography variant="body2">
          {restart.machines.length > 0
            ? t('restart.plan.onDelete', { names: names(restart.machines) })
            : t('restart.plan.none')}
        </Typography>
      ) : (
        <Box component="ol" aria-labelledby={headingId} sx={{ mt: 0.5, pl: 3 }}>
          {restart.steps.map((step, i) => (
            <Typography component="li" variant="body2" key={i}>
              {step.create > 0 && step.delete.length > 0
                ? t('restart.plan.both', { count: step.create, names: names(step.delete) })
                : step.create > 0
                  ? t('restart.plan.create', { count: step.create })
                  : t('restart.plan.delete', { names: names(step.delete) })}
            </Typography>
          ))}
        </Box>
      )}
    </Box>
  );
}

/** Whether the API server accepted the whole plan in its dry run, above the steps. */
function VerdictSummary({ plan }: { plan: Plan }) {
  const { t } = useI18n();
  const refused = plan.verdict?.steps.filter((v) => v.status === 'refused').length ?? 0;
  return (
    <Alert severity={refused > 0 ? 'error' : 'success'} sx={{ mb: 2 }}>
      {refused > 0
        ? t('plan.verdict.someRefused', { count: refused })
        : t('plan.verdict.allAccepted')}
    </Alert>
  );
}

const verdictColor = { accepted: 'success', refused: 'error', unjudged: 'default' } as const;

/**
 * The API server's dry-run verdict on one step: accepted, refused (its Status and causes, each
 * with the object field and rule it concerns), or judged only at Apply (and why).
 */
function StepVerdictView({ verdict }: { verdict: StepVerdict }) {
  const { t, localize } = useI18n();
  return (
    <Box sx={{ mt: 0.5, mb: 1 }}>
      <Chip
        size="small"
        color={verdictColor[verdict.status]}
        variant={verdict.status === 'accepted' ? 'outlined' : 'filled'}
        label={t(`plan.verdict.${verdict.status}`)}
      />
      {verdict.status === 'refused' && (
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2 }}>
          {verdict.issues.length > 0 ? (
            verdict.issues.map((issue, j) => (
              <Typography component="li" variant="body2" color="error" key={`${issue.path}-${j}`}>
                {issue.path
                  ? t('plan.verdict.cause', { field: issue.path, message: localize(issue) })
                  : localize(issue)}
                {issue.rule !== 'R-API' && !localize(issue).includes(issue.rule)
                  ? ` (${issue.rule})`
                  : ''}
              </Typography>
            ))
          ) : (
            <Typography component="li" variant="body2" color="error">
              {verdict.error?.message}
            </Typography>
          )}
        </Box>
      )}
      {verdict.note && (
        <Typography variant="caption" color="text.secondary" component="div">
          {localize(verdict.note)}
        </Typography>
      )}
    </Box>
  );
}

function DiffView({ diff }: { diff: ObjectDiff }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <Accordion
      disableGutters
      variant="outlined"
      expanded={open}
      onChange={(_e, v) => {
        setOpen(v);
      }}
      sx={{ mt: 1 }}
    >
      <AccordionSummary expandIcon={<ExpandMore />}>
        <Typography component="div">
          <Chip
            size="small"
            label={t(`plan.change.${diff.change}`)}
            color={
              diff.change === 'delete' ? 'error' : diff.change === 'create' ? 'success' : 'info'
            }
            sx={{ mr: 1 }}
          />
          {diff.kind} {diff.name}
          {diff.clonedFrom ? ` ${t('plan.clonedFrom', { name: diff.clonedFrom })}` : ''}
          {diff.changes.length > 0
            ? ` · ${t('plan.fieldCount', { count: diff.changes.length })}`
            : ''}
        </Typography>
      </AccordionSummary>
      <AccordionDetails>
        {diff.changes.length > 0 && (
          <Box component="ul" sx={{ m: 0, mb: 1, pl: 2, fontFamily: 'monospace', fontSize: 12.5 }}>
            {diff.changes.slice(0, 50).map((c) => (
              <li key={`${c.change}${c.path}`}>{describe(c)}</li>
            ))}
          </Box>
        )}
        {open && <YamlPair before={diff.before} after={diff.after} />}
      </AccordionDetails>
    </Accordion>
  );
}

const short = (v: unknown) => {
  const s = JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
};

function describe(c: FieldChange): string {
  if (c.change === 'add') return `+ ${c.path}: ${short(c.after)}`;
  if (c.change === 'remove') return `- ${c.path}: ${short(c.before)}`;
  return `~ ${c.path}: ${short(c.before)} → ${short(c.after)}`;
}

/** Old and new YAML side by side; the YAML library loads only when a diff is opened. */
function YamlPair({ before, after }: { before: unknown; after: unknown }) {
  const { t } = useI18n();
  const [text, setText] = useState<{ before?: string; after?: string }>();
  useEffect(() => {
    let live = true;
    void import('yaml').then(({ stringify }) => {
      if (live)
        setText({
          ...(before !== undefined ? { before: stringify(before) } : {}),
          ...(after !== undefined ? { after: stringify(after) } : {}),
        });
    });
    return () => {
      live = false;
    };
  }, [before, after]);
  if (!text) return null;
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: text.before && text.after ? '1fr 1fr' : '1fr',
        gap: 1,
      }}
    >
      {text.before && <CodeBlock text={text.before} label={t('plan.before')} />}
      {text.after && <CodeBlock text={text.after} label={t('plan.after')} />}
    </Box>
  );
}

/**
 * Commands or YAML with a copy button. `copyLabel` names the button where a page holds several
 * blocks (screen readers list buttons by name: "Copy" five times says nothing).
 */
export function CodeBlock({
  text,
  label,
  copyLabel,
}: {
  text: string;
  label: string;
  copyLabel?: string;
}) {
  const { t } = useI18n();
  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center' }}>
        <Typography variant="caption" color="text.secondary" sx={{ mr: 'auto' }}>
          {label}
        </Typography>
        <Button
          size="small"
          {...(copyLabel ? { 'aria-label': copyLabel } : {})}
          onClick={() => {
            void navigator.clipboard.writeText(text);
          }}
        >
          {t('common.copy')}
        </Button>
      </Stack>
      <Box
        component="pre"
        tabIndex={0}
        aria-label={label}
        sx={{
          m: 0,
          p: 1,
          fontSize: 12,
          bgcolor: 'action.hover',
          borderRadius: 1,
          overflow: 'auto',
          maxHeight: 320,
        }}
      >
        {text}
      </Box>
    </Box>
  );
}
