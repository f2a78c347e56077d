import {
  validatePatchIpPool,
  type AdditionNic,
  type EntryOwnField,
  type IpPoolEntry,
  type IpPoolEntryView,
  type PatchIpPoolRequest,
  type PersistentDisk,
} from '@dcs/domain';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Link,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Fragment, useState } from 'react';
import { Link as RouterLink } from '../../../lib/routing';
import { ObjectEvents } from '../../events/components/ObjectEvents';
import { useClusterContext } from '../../../api/get-cluster-context';
import { ActionButton } from '../../../components/ActionButton';
import { DisksEditor, IpEntriesEditor, NicsEditor } from '../../../components/IpEntriesEditor';
import { PageLoading } from '../../../components/PageLoading';
import { PlanFlowActions } from '../../../components/PlanFlowActions';
import { PlanPreview } from '../../../components/PlanPreview';
import { ProblemList } from '../../../components/ProblemList';
import { useI18n } from '../../../i18n/context';
import { errorsOf, issuesOutside } from '../../../lib/issues';
import { ipPoolsPath, machinePath } from '../../../lib/paths';
import { providerGates } from '../../../lib/provider-gates';
import { usePlanFlow } from '../../../lib/use-plan-flow';
import { MergeNotice } from '../../../components/MergeNotice';
import { useIpPools } from '../api/get-ip-pools';
import { usePatchIpPool } from '../api/patch-ip-pool';
import { consumersText } from './consumers-text';
import { EntryFieldsEditor, entryFieldsSet, entryTexts } from './EntryFieldsEditor';

/** What the user changed of one existing entry; a part left undefined is not sent. */
interface Update {
  additionNic?: AdditionNic[];
  persistentDisk?: PersistentDisk[];
  /** The entry's own fields as typed (issue 12: edit an unclaimed entry). */
  texts?: Record<EntryOwnField, string>;
}

/**
 * One IP-hostname pool: each entry with the machine that claimed it, its NICs and persistent
 * disks and their status; append entries, remove unclaimed ones (R-POOL-6), edit an unclaimed
 * entry's own fields (ip, mask, gateway, dns, hostname, machineName; a claimed one's are
 * read-only, R-POOL-5), NICs (R-NIC-*) and disks (R-DISK-*). Every edit keeps the other entries
 * exactly (R-POOL-4); a 409 offers to re-apply the same edits over the pool as it is now.
 */
export function IpPoolPage({
  namespace,
  cluster,
  name,
}: {
  namespace: string;
  cluster: string;
  name: string;
}) {
  const { t } = useI18n();
  const pools = useIpPools(namespace);
  const context = useClusterContext(namespace, cluster);
  const [editing, setEditing] = useState(false);
  const [append, setAppend] = useState<IpPoolEntry[]>([]);
  const [remove, setRemove] = useState<ReadonlySet<string>>(new Set());
  const [updates, setUpdates] = useState<ReadonlyMap<string, Update>>(new Map());
  const [open, setOpen] = useState<string | undefined>();
  const send = usePatchIpPool(namespace, cluster, name);
  const reset = () => {
    setEditing(false);
    setAppend([]);
    setRemove(new Set());
    setUpdates(new Map());
    setOpen(undefined);
  };
  const flow = usePlanFlow(send, reset);
  const pool = pools.data?.find((p) => p.name === name);
  if (pools.isPending || context.isPending) return <PageLoading />;
  if (!pool) return <Alert severity="warning">{t('ipPools.notFound', { name })}</Alert>;
  const ctx = context.data?.validation;
  const gates = providerGates(ctx?.providerVersion);
  const req: PatchIpPoolRequest = {
    resourceVersion: pool.resourceVersion ?? '',
    append,
    remove: [...remove],
    update: pool.entries.flatMap((e) => {
      const u = updates.get(e.ip);
      if (!u) return [];
      const set = u.texts && entryFieldsSet(e, u.texts);
      if (!u.additionNic && !u.persistentDisk && !set) return [];
      return [
        {
          ip: e.ip,
          ...(u.additionNic ? { additionNic: u.additionNic } : {}),
          ...(u.persistentDisk ? { persistentDisk: u.persistentDisk } : {}),
          ...(set ? { set } : {}),
        },
      ];
    }),
  };
  const issues = ctx && editing ? validatePatchIpPool(name, req, ctx) : [];
  const changed = append.length > 0 || remove.size > 0 || req.update.length > 0;
  const reviewing = flow.stage === 'review' || flow.stage === 'applying';
  // Issues name the request's update index, not the entry's row.
  const updatePath = (ip: string) => {
    const k = req.update.findIndex((u) => u.ip === ip);
    return `update.${String(k < 0 ? req.update.length : k)}`;
  };
  const updateOf = (e: (typeof pool.entries)[number]) => {
    const u = updates.get(e.ip);
    return {
      additionNic: u?.additionNic ?? e.additionNic,
      persistentDisk: u?.persistentDisk ?? e.persistentDisk,
      texts: u?.texts ?? entryTexts(e),
    };
  };
  const setUpdate = (ip: string, part: Update) => {
    setUpdates((m) => new Map(m).set(ip, { ...m.get(ip), ...part }));
  };
  const reapply = async () => {
    // Someone else changed the pool: the same edits (keyed by ip) over its current version.
    const fresh = (await pools.refetch()).data?.find((p) => p.name === name);
    if (fresh) await flow.preview({ ...req, resourceVersion: fresh.resourceVersion ?? '' });
  };

  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
        <Button component={RouterLink} to={ipPoolsPath(namespace, cluster)}>
          ← {t('tabs.ipPools')}
        </Button>
        <Typography variant="h2" sx={{ mr: 'auto' }}>
          {pool.name}
        </Typography>
        <Chip label={t('ipPools.usage', { used: pool.used, total: pool.total, free: pool.free })} />
        {!editing && (
          <ActionButton
            variant="contained"
            label={t('ipPools.edit')}
            permission={context.data?.permissions.editIpPool}
            blockedReason={
              gates.webWorkflow ? undefined : t('gate.short', { version: gates.version ?? '?' })
            }
            onClick={() => {
              setEditing(true);
            }}
          />
        )}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('ipPools.consumedBy', {
          list: consumersText(pool.consumers, t),
        })}
      </Typography>
      {flow.stage === 'done' && !editing && <MergeNotice plan={flow.applied} />}
      {reviewing && flow.plan ? (
        <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
          <PlanPreview plan={flow.plan} />
        </Paper>
      ) : (
        <TableContainer component={Paper} variant="outlined" sx={{ mb: 2 }}>
          <Table size="small" aria-label={t('ipPools.entriesOf', { name: pool.name })}>
            <TableHead>
              <TableRow>
                {editing && <TableCell padding="checkbox">{t('ipPools.remove')}</TableCell>}
                <TableCell>{t('ip.ip')}</TableCell>
                <TableCell>{t('ip.mask')}</TableCell>
                <TableCell>{t('ip.gateway')}</TableCell>
                <TableCell>{t('ip.hostname')}</TableCell>
                <TableCell>{t('ip.machineName')}</TableCell>
                <TableCell>{t('ipPools.claimedBy')}</TableCell>
                <TableCell>{t('ipPools.nics')}</TableCell>
                <TableCell>{t('ipPools.disks')}</TableCell>
                {editing && <TableCell />}
              </TableRow>
            </TableHead>
            <TableBody>
              {pool.entries.map((e, i) => {
                const u = updateOf(e);
                return (
                  <Fragment key={e.ip}>
                    <TableRow
                      sx={
                        remove.has(e.ip)
                          ? { opacity: 0.5, textDecoration: 'line-through' }
                          : undefined
                      }
                    >
                      {editing && (
                        <TableCell padding="checkbox">
                          <Checkbox
                            size="small"
                            disabled={e.claimedBy !== undefined}
                            checked={remove.has(e.ip)}
                            onChange={(ev) => {
                              setRemove((s) => {
                                const next = new Set(s);
                                if (ev.target.checked) next.add(e.ip);
                                else next.delete(e.ip);
                                return next;
                              });
                            }}
                            slotProps={{
                              input: {
                                'aria-label': e.claimedBy
                                  ? t('ipPools.cannotRemove', { ip: e.ip, machine: e.claimedBy })
                                  : t('ipPools.removeEntry', { ip: e.ip }),
                              },
                            }}
                          />
                        </TableCell>
                      )}
                      <TableCell>{e.ip}</TableCell>
                      <TableCell>{e.mask}</TableCell>
                      <TableCell>{e.gateway}</TableCell>
                      <TableCell>{e.hostname ?? '—'}</TableCell>
                      <TableCell>{e.machineName ?? '—'}</TableCell>
                      <TableCell>
                        {e.claimedBy ? (
                          <Link
                            component={RouterLink}
                            to={machinePath(namespace, cluster, e.claimedBy)}
                          >
                            {e.claimedBy}
                          </Link>
                        ) : (
                          <Chip size="small" variant="outlined" label={t('ipPools.freeEntry')} />
                        )}
                      </TableCell>
                      <TableCell>
                        {u.additionNic
                          .map(
                            (n) =>
                              `${n.dvSwitchName ?? '?'}/${n.portGroupName ?? '?'} ${n.ip ?? ''}`,
                          )
                          .join('; ') || '—'}
                      </TableCell>
                      <TableCell>
                        {u.persistentDisk
                          .map((d) => `#${d.slot} ${d.path ?? ''} ${d.quantityGB} GB`)
                          .join('; ') || '—'}
                      </TableCell>
                      {editing && (
                        <TableCell>
                          <Button
                            size="small"
                            aria-expanded={open === e.ip}
                            aria-label={t('ipPools.editEntry', { ip: e.ip })}
                            onClick={() => {
                              setOpen(open === e.ip ? undefined : e.ip);
                            }}
                          >
                            {t('ipPools.editShort')}
                          </Button>
                        </TableCell>
                      )}
                    </TableRow>
                    {editing && open === e.ip && (
                      <TableRow>
                        <TableCell colSpan={10}>
                          <EntryFieldsEditor
                            entry={e}
                            texts={u.texts}
                            issues={issues}
                            basePath={`${updatePath(e.ip)}.set`}
                            onChange={(texts) => {
                              setUpdate(e.ip, { texts });
                            }}
                          />
                          {e.claimedBy && (
                            <Alert severity="info" sx={{ mb: 1 }}>
                              {t('ipPools.nic2', { machine: e.claimedBy })}
                            </Alert>
                          )}
                          {e.claimedBy && (
                            <Alert severity="info" sx={{ mb: 1 }}>
                              {t('ipPools.disk6')}
                            </Alert>
                          )}
                          <NicsEditor
                            nics={u.additionNic}
                            basePath={`${updatePath(e.ip)}.additionNic`}
                            issues={issues}
                            entryN={i + 1}
                            onChange={(nics) => {
                              setUpdate(e.ip, { additionNic: nics });
                            }}
                          />
                          {gates.persistentDisks && (
                            <DisksEditor
                              disks={u.persistentDisk}
                              basePath={`${updatePath(e.ip)}.persistentDisk`}
                              issues={issues}
                              entryN={i + 1}
                              lockedCount={e.persistentDisk.length}
                              onChange={(disks) => {
                                setUpdate(e.ip, { persistentDisk: disks });
                              }}
                            />
                          )}
                        </TableCell>
                      </TableRow>
                    )}
                  </Fragment>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {editing && !reviewing && (
        <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
          <Typography variant="h3" sx={{ mb: 1 }}>
            {t('ipPools.append')}
          </Typography>
          <IpEntriesEditor
            label={t('ipPools.append')}
            entries={append}
            onChange={setAppend}
            issues={issues}
            basePath="append"
            existingIps={pool.entries.map((e) => e.ip)}
            poolEntries={pool.entries.flatMap((e) => entryOf(e) ?? [])}
            persistentDisksAllowed={gates.persistentDisks}
          />
          {remove.size > 0 && (
            <Alert severity="warning" sx={{ mt: 1 }}>
              {t('ipPools.pool6')}
            </Alert>
          )}
          <Box sx={{ mt: 1 }}>
            <ProblemList items={issuesOutside(issues, ['append'])} />
          </Box>
        </Paper>
      )}
      {editing && (
        <PlanFlowActions
          flow={flow}
          onCancel={reset}
          onPreview={() => {
            void flow.preview(req);
          }}
          onReapply={() => {
            void reapply();
          }}
          applyLabel={t('ipPools.apply')}
          previewDisabled={!changed || errorsOf(issues).length > 0}
        />
      )}
      {pool.persistentDiskStatus.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="h3" sx={{ mb: 1 }}>
            {t('ipPools.diskStatus')}
          </Typography>
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" aria-label={t('ipPools.diskStatus')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('ip.ip')}</TableCell>
                  <TableCell>{t('ip.disk.slot')}</TableCell>
                  <TableCell>{t('ipPools.volume')}</TableCell>
                  <TableCell>{t('ipPools.attachedTo')}</TableCell>
                  <TableCell>{t('nodes.phase')}</TableCell>
                  <TableCell>{t('conditions.message')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {pool.persistentDiskStatus.map((d) => (
                  <TableRow key={`${d.ip}/${d.slot}`}>
                    <TableCell>{d.ip}</TableCell>
                    <TableCell>{d.slot}</TableCell>
                    <TableCell>{d.volumeName ?? '—'}</TableCell>
                    <TableCell>{d.machineName ?? '—'}</TableCell>
                    <TableCell>{d.phase ?? '—'}</TableCell>
                    <TableCell>{d.message ?? '—'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Box>
      )}
      {/* Issue 26: the pool's Events (entries claimed, volumes attached, refusals). */}
      <Box sx={{ mt: 3 }}>
        <ObjectEvents
          namespace={namespace}
          source={{ objects: [`DCSIpHostnamePool/${name}`] }}
          follow={pool}
        />
      </Box>
    </Box>
  );
}

/** The wire entry of a view's entry (without who claimed it), to copy settings from. */
function entryOf(e: IpPoolEntryView | undefined): IpPoolEntry | undefined {
  if (!e) return undefined;
  const { claimedBy: _c, ...entry } = e;
  return { ...entry };
}
