import type { Plan } from '@dcs/domain';
import { Alert, Stack } from '@mui/material';
import { useI18n } from '../i18n/context';

/**
 * R-POOL-4: after Apply, what the change was merged with when it was re-applied over someone
 * else's edit of an IP pool (the BFF's `plan.issue.poolMerged` notice), so that a merge is never
 * silent.
 */
export function MergeNotice({ plan }: { plan: Plan | undefined }) {
  const { localize } = useI18n();
  const merged = plan?.issues.filter((i) => i.messageKey === 'plan.issue.poolMerged') ?? [];
  if (merged.length === 0) return null;
  return (
    <Stack spacing={0.5} sx={{ mb: 2 }}>
      {merged.map((i) => (
        <Alert key={`${i.path}-${String(i.params.name)}`} severity="warning">
          {localize(i)}
        </Alert>
      ))}
    </Stack>
  );
}
