import type { FieldChange, ObjectDiff, Plan } from '@dcs/domain';
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
import { useEffect, useState } from 'react';
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

export function CodeBlock({ text, label }: { text: string; label: string }) {
  const { t } = useI18n();
  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center' }}>
        <Typography variant="caption" color="text.secondary" sx={{ mr: 'auto' }}>
          {label}
        </Typography>
        <Button
          size="small"
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
