import { Box } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * Label/value pairs of a detail page as a description list (read in pairs by screen readers):
 * the machine's facts, its Node's. The pool card's compact variant is PoolFacts.
 */
export function FactList({
  facts,
  label,
  mb = 3,
}: {
  facts: readonly (readonly [label: string, value: ReactNode])[];
  /** The list's accessible name, when the page holds several. */
  label?: string;
  mb?: number;
}) {
  return (
    <Box
      component="dl"
      {...(label ? { 'aria-label': label } : {})}
      sx={{
        display: 'grid',
        gridTemplateColumns: 'max-content 1fr',
        columnGap: 3,
        rowGap: 0.5,
        m: 0,
        mb,
        '& dt': { color: 'text.secondary' },
        '& dd': { m: 0, overflowWrap: 'anywhere' },
      }}
    >
      {facts.map(([l, value]) => (
        <Box key={l} sx={{ display: 'contents' }}>
          <dt>{l}</dt>
          <dd>{value}</dd>
        </Box>
      ))}
    </Box>
  );
}
