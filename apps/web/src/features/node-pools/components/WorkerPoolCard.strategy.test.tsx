// @vitest-environment happy-dom
import type { NodePoolView, ObjectSet } from '@dcs/domain';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoContext } from '../../../test/api';
import { demoClusterViews } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import { WorkerPoolCard } from './WorkerPoolCard';

afterEach(cleanup);

// The demo pool's IP pool declares persistent disks; this one surges anyway (R-MD-3's warning).
const surging = (): NodePoolView => {
  const pool = demoClusterViews((o: ObjectSet) => {
    const ru = o.machineDeployments?.[0]?.spec?.strategy?.rollingUpdate;
    if (ru) ru.maxSurge = 1;
    if (ru) ru.maxUnavailable = 0;
  }).pools.find((p) => p.id === 'demo-md-0');
  if (!pool) throw new Error('the demo cluster has no worker pool');
  return pool;
};

describe('a worker card leads to its rollout settings (O-EDIT-STRATEGY)', () => {
  function card(pool: NodePoolView, role: 'operator' | 'viewer', onAction = vi.fn()) {
    renderInApp(
      <MemoryRouter>
        <WorkerPoolCard
          pool={pool}
          permissions={demoContext(role).permissions}
          gatedReason={undefined}
          onAction={onAction}
        />
      </MemoryRouter>,
    );
    return screen.getByRole('article');
  }

  it('R-MD-3: the card’s "keep maxSurge = 0" warning opens the rollout settings', () => {
    const onAction = vi.fn();
    const pool = surging();
    const c = card(pool, 'operator', onAction);
    const problems = within(c).getByRole('group', { name: 'Problems' });
    expect(problems.textContent).toMatch(/keep maxSurge = 0/);
    fireEvent.click(within(problems).getByRole('button', { name: 'Set maxSurge to 0' }));
    expect(onAction).toHaveBeenCalledWith('editStrategy', pool);
    fireEvent.click(within(c).getByRole('button', { name: 'Rollout settings' }));
    expect(onAction).toHaveBeenCalledTimes(2);
  });

  it('O-EDIT-STRATEGY for a viewer: the action stays visible, disabled, and says why', () => {
    const onAction = vi.fn();
    const c = card(surging(), 'viewer', onAction);
    const button = within(c).getByRole('button', { name: 'Rollout settings' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.getAttribute('aria-describedby')).toBeTruthy();
    const reason = document.getElementById(button.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toMatch(/access review refused patch on machinedeployments/);
    fireEvent.click(button);
    fireEvent.click(within(c).getByRole('button', { name: 'Set maxSurge to 0' }));
    expect(onAction).not.toHaveBeenCalled();
  });
});
