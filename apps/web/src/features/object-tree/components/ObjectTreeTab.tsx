import type { ObjectTreeNode, ObjectTreeRow } from '@dcs/domain';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import {
  Box,
  Button,
  FormControl,
  FormControlLabel,
  InputLabel,
  Link,
  MenuItem,
  Select,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useSearchParams } from '../../../lib/routing';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { PageLoading } from '../../../components/PageLoading';
import { useI18n } from '../../../i18n/context';
import { machinePath, poolPath } from '../../../lib/paths';
import { useObjectTree, type ObjectTreeChoice } from '../api/get-object-tree';

/** The kinds `--show-conditions` can name here, besides "all". */
const CONDITION_KINDS = [
  'Cluster',
  'DCSCluster',
  'KubeadmControlPlane',
  'MachineDeployment',
  'MachineSet',
  'Machine',
  'DCSMachine',
  'KubeadmConfig',
];

const TONE_COLOR: Record<NonNullable<ObjectTreeRow['tone']>, string> = {
  ok: 'success.main',
  error: 'error.main',
  warning: 'warning.main',
  unknown: 'warning.main',
  info: 'text.secondary',
};

const COLUMNS = new Set([
  'NAME',
  'REPLICAS',
  'AVAILABLE',
  'READY',
  'UP TO DATE',
  'STATUS',
  'REASON',
  'SINCE',
  'MESSAGE',
  'SEVERITY',
] as const);
type Column = typeof COLUMNS extends Set<infer C> ? C : never;
const isColumn = (h: string): h is Column => (COLUMNS as Set<string>).has(h);

const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' };

/** The options live in the address, so that a tree pasted into a ticket opens as it was seen. */
function useChoice(): [ObjectTreeChoice, (patch: Partial<ObjectTreeChoice>) => void] {
  const [params, setParams] = useSearchParams();
  const choice: ObjectTreeChoice = {
    grouping: params.get('grouping') !== 'false',
    showMachineSets: params.get('machineSets') === 'true',
    echo: params.get('echo') === 'true',
    showConditions: params.get('conditions') ?? '',
  };
  const set = (patch: Partial<ObjectTreeChoice>) => {
    const next = { ...choice, ...patch };
    const p = new URLSearchParams();
    if (!next.grouping) p.set('grouping', 'false');
    if (next.showMachineSets) p.set('machineSets', 'true');
    if (next.echo) p.set('echo', 'true');
    if (next.showConditions) p.set('conditions', next.showConditions);
    setParams(p, { replace: true });
  };
  return [choice, set];
}

/**
 * A cluster's object tree (issue 26, item 5), as `clusterctl describe cluster` prints it: the
 * same lines, glyphs and columns, each object's name linking to its page where the console has
 * one, and the whole text one click from the clipboard.
 */
export function ObjectTreeTab({ namespace, cluster }: { namespace: string; cluster: string }) {
  const { t } = useI18n();
  const [choice, setChoice] = useChoice();
  const tree = useObjectTree(namespace, cluster, choice);
  const [copied, setCopied] = useState(false);

  const links = useMemo(() => {
    const map = new Map<string, string>();
    const walk = (n: ObjectTreeNode) => {
      if (n.link)
        map.set(
          n.id,
          'pool' in n.link
            ? poolPath(namespace, cluster, n.link.pool)
            : machinePath(namespace, cluster, n.link.machine),
        );
      n.children.forEach(walk);
    };
    if (tree.data) walk(tree.data.root);
    return map;
  }, [tree.data, namespace, cluster]);

  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">{t('tree.description')}</Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <FormControlLabel
          control={
            <Switch
              checked={choice.grouping}
              onChange={(e) => {
                setChoice({ grouping: e.target.checked });
              }}
            />
          }
          label={t('tree.grouping')}
        />
        <FormControlLabel
          control={
            <Switch
              checked={choice.showMachineSets}
              onChange={(e) => {
                setChoice({ showMachineSets: e.target.checked });
              }}
            />
          }
          label={t('tree.showMachineSets')}
        />
        <FormControlLabel
          control={
            <Switch
              checked={choice.echo}
              onChange={(e) => {
                setChoice({ echo: e.target.checked });
              }}
            />
          }
          label={t('tree.echo')}
        />
        <FormControl size="small" sx={{ minWidth: 220 }}>
          <InputLabel id="tree-conditions">{t('tree.showConditions')}</InputLabel>
          <Select
            labelId="tree-conditions"
            label={t('tree.showConditions')}
            value={choice.showConditions}
            onChange={(e) => {
              setChoice({ showConditions: e.target.value });
            }}
          >
            <MenuItem value="">{t('tree.conditionsNone')}</MenuItem>
            <MenuItem value="all">{t('tree.conditionsAll')}</MenuItem>
            {CONDITION_KINDS.map((k) => (
              <MenuItem key={k} value={k}>
                {k}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <Box sx={{ flexGrow: 1 }} />
        <Button
          startIcon={<ContentCopyOutlined />}
          disabled={!tree.data}
          onClick={() => {
            if (!tree.data) return;
            void navigator.clipboard.writeText(tree.data.text).then(() => {
              setCopied(true);
            });
          }}
        >
          {copied ? t('tree.copied') : t('tree.copy')}
        </Button>
      </Stack>
      {tree.isPending && <PageLoading />}
      {tree.isError && <ErrorAlert error={tree.error} />}
      {tree.data && (
        <>
          <Typography variant="body2" color="text.secondary">
            {t('tree.conditionsFrom', { version: tree.data.conditions })}
          </Typography>
          <Box sx={{ overflowX: 'auto' }}>
            <Table
              size="small"
              aria-label={t('tree.label', { cluster })}
              // No rules between lines: the tree's glyphs join from one line to the next.
              sx={{ ...MONO, '& td': { borderBottom: 0, lineHeight: 1.35 } }}
            >
              <TableHead>
                <TableRow>
                  {tree.data.header.map((h) => (
                    <TableCell key={h} sx={{ ...MONO, whiteSpace: 'nowrap', fontWeight: 600 }}>
                      {isColumn(h) ? t(`tree.column.${h}`) : h}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {tree.data.rows.map((row, i) => {
                  const to = row.type === 'object' ? links.get(row.node) : undefined;
                  // The status column (v1beta2: 6th, v1beta1: 2nd) carries the condition's colour.
                  const statusAt = tree.data.conditions === 'v1beta2' ? 4 : 0;
                  return (
                    <TableRow key={`${row.node}:${String(i)}`} data-row-type={row.type}>
                      <TableCell sx={{ ...MONO, whiteSpace: 'pre', py: 0 }}>
                        <Box component="span" sx={{ color: 'text.disabled' }}>
                          {row.prefix}
                        </Box>
                        {to ? (
                          <Link component={RouterLink} to={to}>
                            {row.name}
                          </Link>
                        ) : (
                          <Box
                            component="span"
                            sx={row.type === 'condition' ? { color: 'info.main' } : {}}
                          >
                            {row.name}
                          </Box>
                        )}
                      </TableCell>
                      {row.cells.map((cell, j) => (
                        <TableCell
                          key={j}
                          sx={{
                            ...MONO,
                            whiteSpace: 'pre',
                            py: 0,
                            ...(j === statusAt && row.tone ? { color: TONE_COLOR[row.tone] } : {}),
                          }}
                        >
                          {cell}
                        </TableCell>
                      ))}
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </Box>
        </>
      )}
    </Stack>
  );
}
