// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoContext } from '../../../test/api';
import { demoClusterViews } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import { DeletePoolDialog } from './DeletePoolDialog';
import { ScaleDialog } from './ScaleDialog';

afterEach(cleanup);

const views = demoClusterViews();
const pool = views.pools.find((p) => p.id === 'demo-md-0');
if (!pool?.ipPool) throw new Error('the demo cluster has no worker pool with an IP pool');
const common = { namespace: 'cpaas-system', cluster: 'demo', pool, context: demoContext() };

describe('Scale (O-SCALE-UP)', () => {
  it('R-POOL-1, R-POOL-4: shows the free IP entries, and the inline "extend IP pool" editor once short', () => {
    renderInApp(<ScaleDialog {...common} machines={views.machines} onClose={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: 'Scale demo-md-0' });
    // R-POOL-1: the pool's 3 entries are claimed by its own 3 machines: none free, room for 3.
    const figures = within(dialog).getByRole('status');
    expect(figures.textContent).toBe(
      'IP pool demo-worker-pool: 0 of 3 entries free, room for 3 replicas of this pool',
    );
    const replicas = within(dialog).getByRole<HTMLInputElement>('spinbutton', {
      name: /^Replicas/,
    });
    expect(within(dialog).queryByRole('group', { name: /Extend IP pool/ })).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: 'One replica more' }));
    expect(replicas.value).toBe('4');
    expect(replicas.getAttribute('aria-invalid')).toBe('true');
    // One derivation, one number: the rule's message says the same room as the figures.
    expect(
      within(dialog).getByText(
        /replicas 4 is more than IP pool demo-worker-pool can serve: of its 3 entries, other node pools need 0, which leaves room for 3 replicas/,
      ),
    ).toBeTruthy();
    expect(
      within(dialog).getByRole('heading', { name: 'Extend IP pool demo-worker-pool' }),
    ).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: /^Extend IP pool by 1 entry$/ }));
    const editor = within(dialog).getByRole('group', { name: 'Extend IP pool demo-worker-pool' });
    expect(
      within(editor).getByRole<HTMLInputElement>('textbox', { name: 'IP (Entry 1)' }).value,
    ).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(replicas.getAttribute('aria-invalid')).toBe('false');
    expect(figures.textContent).toBe(
      'IP pool demo-worker-pool: 1 of 4 entries free, room for 4 replicas of this pool',
    );
    const preview = within(dialog).getByRole('button', { name: 'Preview plan' });
    expect(preview.hasAttribute('disabled')).toBe(false);
  });
});

describe('Scale follow (O-SCALE-UP)', () => {
  it('previews a scale-up only once the pool’s machines are loaded: the baseline is never a guess', () => {
    renderInApp(<ScaleDialog {...common} machines={undefined} onClose={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: 'Scale demo-md-0' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'One replica more' }));
    fireEvent.click(within(dialog).getByRole('button', { name: /^Extend IP pool by 1 entry$/ }));
    const preview = within(dialog).getByRole('button', { name: 'Preview plan' });
    // The same change with the machines loaded is enabled (the test above).
    expect(preview.hasAttribute('disabled')).toBe(true);
    // …and the dialog says why.
    expect(
      within(dialog)
        .getByText(/Loading the pool's machines/)
        .getAttribute('role'),
    ).toBe('status');
  });
});

describe('Delete (U-5)', () => {
  it('O-DELETE-POOL: is confirmed only by typing the pool’s name', () => {
    renderInApp(
      <DeletePoolDialog
        {...common}
        machines={views.machines.filter((m) => m.poolId === pool.id).map((m) => m.name)}
        onClose={vi.fn()}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Delete worker node pool demo-md-0' });
    expect(within(dialog).getByRole('list', { name: /machines/i }).textContent).toContain(
      'demo-md-0-abc12-m1',
    );
    const preview = within(dialog).getByRole('button', { name: 'Preview plan' });
    expect(preview.hasAttribute('disabled')).toBe(true);
    const confirm = within(dialog).getByRole('textbox', { name: 'Type demo-md-0 to confirm' });
    fireEvent.change(confirm, { target: { value: 'demo-md' } });
    expect(preview.hasAttribute('disabled')).toBe(true);
    expect(confirm.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(confirm, { target: { value: 'demo-md-0' } });
    expect(preview.hasAttribute('disabled')).toBe(false);
  });
});
