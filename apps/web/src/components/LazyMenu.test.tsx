// @vitest-environment happy-dom
import { MenuItem } from '@mui/material';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LazyMenu } from './LazyMenu';

afterEach(cleanup);

describe('the app bar’s menus (issue 28: their code is not in the first load)', () => {
  it('renders nothing until first opened, then the menu with its items', async () => {
    const anchor = document.createElement('button');
    document.body.append(anchor);
    const menu = (open: boolean) => (
      <LazyMenu open={open} anchorEl={open ? anchor : null}>
        <MenuItem>English</MenuItem>
      </LazyMenu>
    );
    const { rerender } = render(menu(false));
    expect(document.body.querySelector('[role="menu"]')).toBeNull();
    rerender(menu(true));
    expect(await screen.findByRole('menuitem', { name: 'English' })).toBeTruthy();
    expect(screen.getByRole('menu')).toBeTruthy();
    anchor.remove();
  });
});
