import { Alert, Box, Stack } from '@mui/material';
import type { ReactNode } from 'react';
import type { Localizable } from '../i18n/context';
import { useI18n } from '../i18n/context';

export interface ProblemItem extends Localizable {
  severity: 'error' | 'warning';
  rule?: string | undefined;
  code?: string;
  path?: string;
}

/** Problems or rule issues, errors first, each in the user's language with its rule id. */
export function ProblemList({
  items,
  max,
  dense,
  actions,
}: {
  items: readonly ProblemItem[];
  max?: number;
  dense?: boolean;
  /** The way out of a problem, by its code (a card's "Set maxSurge to 0" for R-MD-3). */
  actions?: Readonly<Record<string, ReactNode>>;
}) {
  const { t, localize } = useI18n();
  if (items.length === 0) return null;
  const shown = max === undefined ? items : items.slice(0, max);
  return (
    <Stack spacing={0.5} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {shown.map((p, i) => (
        <Box component="li" key={`${p.code ?? p.messageKey}-${p.path ?? ''}-${i}`}>
          <Alert
            severity={p.severity}
            action={p.code !== undefined ? actions?.[p.code] : undefined}
            sx={{
              // An action keeps its label on one line; the message wraps beside it.
              '& .MuiAlert-action': { whiteSpace: 'nowrap', alignItems: 'center', pt: 0 },
              ...(dense ? { py: 0, '& .MuiAlert-message': { py: 0.75 } } : {}),
            }}
          >
            {localize(p)}
            {p.rule && !localize(p).includes(p.rule) ? ` (${p.rule})` : ''}
          </Alert>
        </Box>
      ))}
      {max !== undefined && items.length > max && (
        <Box component="li" sx={{ color: 'text.secondary', fontSize: 13 }}>
          {t('common.moreProblems', { count: items.length - max })}
        </Box>
      )}
    </Stack>
  );
}
