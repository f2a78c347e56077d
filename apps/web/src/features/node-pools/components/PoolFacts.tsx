import { Box } from '@mui/material';
import type { ReactNode } from 'react';

/** Label/value pairs as a description list: read in pairs by screen readers, compact on screen. */
export function PoolFacts({
  items,
}: {
  items: readonly { label: string; value: ReactNode; id?: string }[];
}) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: 'max-content 1fr',
        columnGap: 2,
        rowGap: 0.5,
        m: 0,
        '& dt': { color: 'text.secondary', fontSize: 13 },
        '& dd': { m: 0, fontSize: 14, minWidth: 0, overflowWrap: 'anywhere' },
      }}
    >
      {items.map((i) => (
        <Box key={i.label} sx={{ display: 'contents' }}>
          <dt>{i.label}</dt>
          <dd data-fact={i.id}>{i.value}</dd>
        </Box>
      ))}
    </Box>
  );
}
