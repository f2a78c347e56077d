import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Tab,
  Tabs,
} from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { PageLoading } from '../../../components/PageLoading';
import { useI18n } from '../../../i18n/context';
import type { ObjectRef } from '../../../lib/object-refs';
import { useObject } from '../api/get-object';
import { ErrorAlert } from '../../../components/ErrorAlert';

/** A YAML view of each object that makes up a pool or machine, loaded when opened. */
export default function YamlDialog({
  namespace,
  objects,
  title,
  onClose,
}: {
  namespace: string;
  objects: readonly ObjectRef[];
  title: string;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const [tab, setTab] = useState(0);
  const titleId = useId();
  const current = objects[tab];
  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers sx={{ p: 0 }}>
        <Tabs
          value={tab}
          onChange={(_e, v: number) => {
            setTab(v);
          }}
          variant="scrollable"
          aria-label={t('yaml.objects')}
          sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          {objects.map((o) => (
            <Tab
              key={`${o.kind}/${o.name}`}
              label={`${o.kind} ${o.name}`}
              sx={{ textTransform: 'none' }}
            />
          ))}
        </Tabs>
        {current && (
          <ObjectYaml
            key={`${current.kind}/${current.name}`}
            namespace={namespace}
            object={current}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

function ObjectYaml({ namespace, object }: { namespace: string; object: ObjectRef }) {
  const { t } = useI18n();
  const query = useObject(namespace, object.kind, object.name);
  const [text, setText] = useState<string | undefined>();
  useEffect(() => {
    if (!query.data) return;
    let live = true;
    void import('yaml').then(({ stringify }) => {
      if (live) setText(stringify(query.data));
    });
    return () => {
      live = false;
    };
  }, [query.data]);
  if (query.isError) return <ErrorAlert error={query.error} sx={{ m: 2 }} />;
  if (text === undefined) return <PageLoading />;
  return (
    <Box sx={{ position: 'relative' }}>
      <Button
        size="small"
        sx={{ position: 'absolute', right: 16, top: 8 }}
        onClick={() => {
          void navigator.clipboard.writeText(text);
        }}
      >
        {t('common.copy')}
      </Button>
      <Box
        component="pre"
        tabIndex={0}
        aria-label={t('yaml.of', { kind: object.kind, name: object.name })}
        sx={{
          m: 0,
          p: 2,
          fontSize: 12.5,
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
          maxHeight: '65vh',
          overflow: 'auto',
        }}
      >
        {text}
      </Box>
    </Box>
  );
}
