import type { ConditionView } from '@dcs/domain';
import { Alert } from '@mui/material';
import { useI18n } from '../../../i18n/context';
import { ConditionsTable } from './ConditionsTable';

/**
 * An object's Cluster API v1beta2 conditions (issue 23), beside its v1beta1 ones; where the
 * cluster writes only v1beta1 status, says what is missing instead of showing an empty table.
 */
export function V1Beta2Conditions({
  conditions,
  kind,
  name,
}: {
  conditions: readonly ConditionView[] | undefined;
  kind: string;
  name: string;
}) {
  const { t } = useI18n();
  if (!conditions) {
    return (
      <Alert severity="info" sx={{ mb: 3 }} data-testid="v1beta2-missing">
        {t('conditions.v1beta2Missing', { name })}
      </Alert>
    );
  }
  return (
    <ConditionsTable conditions={conditions} title={t('conditions.v1beta2Of', { kind, name })} />
  );
}
