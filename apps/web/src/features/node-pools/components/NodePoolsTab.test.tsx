// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contextWire, stubApi } from '../../../test/api';
import { demoClusterViews } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import { NodePoolsTab } from './NodePoolsTab';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderTab = (role: 'operator' | 'viewer') => {
  stubApi({
    '/clusters/cpaas-system/demo/context': contextWire(role),
    '/clusters/cpaas-system/demo/nodepools': demoClusterViews().pools,
  });
  const onAction = vi.fn();
  renderInApp(
    <MemoryRouter>
      <NodePoolsTab namespace="cpaas-system" cluster="demo" onAction={onAction} />
    </MemoryRouter>,
  );
  return onAction;
};

/** The reason a refused button gives to a screen reader (its description). */
const reasonOf = (button: HTMLElement) =>
  document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent ?? '';

describe('Node Pools for a viewer', () => {
  it('shows every mutating action, disabled, with the access review’s reason', async () => {
    const onAction = renderTab('viewer');
    const card = await screen.findByRole('article', { name: /demo-md-0/ });
    // The context's rights arrive after the pools: wait for the buttons to say why.
    const scale = within(card).getByRole('button', { name: 'Scale' });
    await vi.waitFor(() => {
      expect(scale.getAttribute('aria-disabled')).toBe('true');
    });
    for (const button of [
      scale,
      within(card).getByRole('button', { name: 'Upgrade' }),
      screen.getByRole('button', { name: 'Add Worker Node Pool' }),
    ]) {
      expect(button.getAttribute('aria-disabled')).toBe('true');
      expect(reasonOf(button)).toMatch(/machinedeployments/);
    }
    fireEvent.click(scale);
    expect(onAction).not.toHaveBeenCalled();
  });

  it('lets an operator use them', async () => {
    const onAction = renderTab('operator');
    const card = await screen.findByRole('article', { name: /demo-md-0/ });
    const scale = within(card).getByRole('button', { name: 'Scale' });
    await vi.waitFor(() => {
      expect(scale.getAttribute('aria-disabled')).toBeNull();
    });
    fireEvent.click(scale);
    expect(onAction).toHaveBeenCalledWith('scale', expect.objectContaining({ id: 'demo-md-0' }));
  });
});
