import { defaultPoolObjectNames, type ValidationContext } from '@dcs/domain';
import { Alert, Typography } from '@mui/material';
import { Controller, useWatch } from 'react-hook-form';
import { IpEntriesEditor } from '../../../components/IpEntriesEditor';
import { useI18n } from '../../../i18n/context';
import { suggestNewPoolEntries, suggestionCount } from '@dcs/domain';
import { useFieldIssues } from '../../../components/FieldIssues';
import { PickOrDefineSection, type PickMode } from './PickOrDefineSection';
import type { SectionProps } from './section';

/** The IP-hostname pool: pick one (showing its free entries) and optionally extend it, or create one. */
export function IpPoolSection({
  form,
  issues,
  ctx,
  persistentDisks,
}: SectionProps & { ctx: ValidationContext; persistentDisks: boolean }) {
  const { t } = useI18n();
  const field = useFieldIssues(issues);
  const ip = useWatch({ control: form.control, name: 'ipPool' });
  const replicas = useWatch({ control: form.control, name: 'replicas' });
  // What the replicas field holds is whatever was typed: the suggestion is bounded (domain).
  const suggested = Math.max(1, suggestionCount(replicas));
  const free = (name: string) => {
    const p = ctx.ipPools.find((x) => x.name === name);
    if (!p) return 0;
    const demand = p.consumers.reduce((n, c) => n + c.replicas, 0);
    return Math.max(0, p.entries.length - Math.max(p.claims.length, demand));
  };
  const setMode = (mode: PickMode) => {
    if (mode === 'existing') {
      const first = ctx.ipPools[0];
      form.setValue(
        'ipPool',
        {
          mode,
          name: first?.name ?? '',
          resourceVersion: first?.resourceVersion ?? '',
          append: [],
        },
        { shouldValidate: true, shouldDirty: true },
      );
    } else
      form.setValue(
        'ipPool',
        { mode, name: defaultPoolObjectNames(form.getValues('name')).ipPool, entries: [] },
        { shouldValidate: true, shouldDirty: true },
      );
  };
  const existing = ip.mode === 'existing' ? ctx.ipPools.find((p) => p.name === ip.name) : undefined;
  // Addresses of every pool of the namespace: a suggestion or a new entry never takes one (R-POOL-2).
  const allIps = ctx.ipPools.flatMap((p) => p.entries.map((e) => e.ip));
  return (
    <PickOrDefineSection
      form={form}
      issues={issues}
      base="ipPool"
      id="section-ippool"
      title={t('pool.ipPool')}
      mode={ip.mode}
      onMode={setMode}
      order={['new', 'existing']}
      newLabel={t('create.newIpPool')}
      nameLabel={t('create.ipPoolName')}
      choices={ctx.ipPools.map((p) => ({
        value: p.name,
        label: t('create.ipPoolOption', {
          name: p.name,
          free: free(p.name),
          total: p.entries.length,
        }),
      }))}
      onPick={(name) => {
        form.setValue(
          'ipPool.resourceVersion',
          ctx.ipPools.find((p) => p.name === name)?.resourceVersion ?? '',
        );
      }}
      notice={
        !persistentDisks && (
          <Alert severity="info" sx={{ my: 1 }}>
            {t('gate.persistentDisks', { min: '1.0.16', version: ctx.providerVersion ?? '?' })}
          </Alert>
        )
      }
      existingExtra={
        <>
          <Typography variant="body2" color="text.secondary">
            {t('create.appendHelp')}
          </Typography>
          <Controller
            control={form.control}
            name="ipPool.append"
            render={({ field: f }) => (
              <IpEntriesEditor
                label={t('create.appendEntries')}
                entries={f.value ?? []}
                onChange={f.onChange}
                issues={issues}
                basePath="ipPool.append"
                existingIps={allIps}
                poolEntries={existing?.entries}
                persistentDisksAllowed={persistentDisks}
              />
            )}
          />
        </>
      }
    >
      <Typography variant="body2" color="text.secondary">
        {Number.isInteger(replicas) && replicas >= 0
          ? t('create.entriesHelp', { replicas })
          : t('create.entriesHelpAnyCount')}
      </Typography>
      <Controller
        control={form.control}
        name="ipPool.entries"
        render={({ field: f }) => (
          <>
            <IpEntriesEditor
              label={t('create.entries')}
              entries={f.value}
              onChange={f.onChange}
              issues={issues}
              basePath="ipPool.entries"
              existingIps={allIps}
              persistentDisksAllowed={persistentDisks}
            />
            {f.value.length === 0 && (
              <Typography variant="body2">
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    // The cluster's layout (NICs, disks, network), on free addresses, for review.
                    f.onChange(suggestNewPoolEntries(ctx, form.getValues('name'), suggested));
                  }}
                  style={{
                    background: 'none',
                    border: 0,
                    padding: 0,
                    color: 'inherit',
                    textDecoration: 'underline',
                    cursor: 'pointer',
                  }}
                >
                  {t('create.suggestEntries', { n: suggested })}
                </button>
              </Typography>
            )}
          </>
        )}
      />
      {text(field('ipPool.entries').helperText)}
    </PickOrDefineSection>
  );
}

const text = (s: string | undefined) =>
  s ? (
    <Typography variant="body2" color="error" role="alert">
      {s}
    </Typography>
  ) : null;

/** The network settings of an entry, without its names, NICs or disks. */
