import type { MenuProps } from '@mui/material/Menu';
import { lazy, Suspense, useState } from 'react';

const loadMenu = () => import('@mui/material/Menu');
const Menu = lazy(loadMenu);

/**
 * Starts downloading the menu's code (a pointer over its button, or focus on it): by the click
 * it is usually there. A failure is left to the menu's own load, which tries again.
 */
export function preloadMenu(): void {
  loadMenu().catch(() => undefined);
}

/**
 * MUI's Menu, its code loaded when it first opens (issue 28). The app bar's three menus
 * (language, theme, session) would otherwise bring Menu, Popover, Modal, the focus trap and
 * the transitions into the first load, ~16 KB gzipped, for menus most visits never open. Once
 * open it stays mounted, so that it closes with its animation like any Menu.
 */
export function LazyMenu(props: MenuProps) {
  const [wanted, setWanted] = useState(props.open);
  if (props.open && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Menu {...props} />
    </Suspense>
  );
}
