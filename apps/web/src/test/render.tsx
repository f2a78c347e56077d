import { ThemeProvider } from '@mui/material/styles';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { theme } from '../app/theme';
import { I18nProvider } from '../i18n/I18nProvider';
import type { Locale } from '../i18n/locale';

/**
 * Renders a component as the app does (theme, language, a query client of its own), in
 * `locale`: the language is chosen as a user would, through the stored choice.
 */
export function renderInApp(
  ui: ReactElement,
  { locale = 'en', client }: { locale?: Locale; client?: QueryClient } = {},
): RenderResult & { client: QueryClient } {
  localStorage.setItem('dcs.locale', locale);
  const queries = client ?? new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <QueryClientProvider client={queries}>
      <ThemeProvider theme={theme}>
        <I18nProvider>{ui}</I18nProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return { ...result, client: queries };
}
