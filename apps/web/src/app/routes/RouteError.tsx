import { Alert, Button } from '@mui/material';
import { Component, type ReactNode } from 'react';
import { useI18n } from '../../i18n/context';
import { Link as RouterLink } from '../../lib/routing';

/** A screen that failed (its error's message) or an address that names none ("not found"). */
export function RouteError({ notFound, error }: { notFound?: boolean; error?: unknown }) {
  const { t } = useI18n();
  return (
    <Alert
      severity={notFound ? 'info' : 'error'}
      sx={{ m: 3 }}
      action={
        <Button component={RouterLink} to="/" color="inherit">
          {t('clusters.title')}
        </Button>
      }
    >
      {notFound ? t('common.notFound') : error instanceof Error ? error.message : t('common.error')}
    </Alert>
  );
}

interface BoundaryState {
  failed: boolean;
  error: unknown;
  /** The address the error happened at: going elsewhere shows the app again. */
  at: string | undefined;
}

/**
 * What a screen that throws while rendering (or whose code cannot be downloaded) shows instead
 * of the whole signed-in frame: RouteError, until the address changes.
 */
export class RouteErrorBoundary extends Component<
  { pathname: string; children: ReactNode },
  BoundaryState
> {
  override state: BoundaryState = { failed: false, error: undefined, at: undefined };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(
    props: { pathname: string },
    state: BoundaryState,
  ): Partial<BoundaryState> | null {
    if (!state.failed) return null;
    if (state.at === undefined) return { at: props.pathname };
    return state.at === props.pathname ? null : { failed: false, error: undefined, at: undefined };
  }

  override render() {
    return this.state.failed ? <RouteError error={this.state.error} /> : this.props.children;
  }
}
