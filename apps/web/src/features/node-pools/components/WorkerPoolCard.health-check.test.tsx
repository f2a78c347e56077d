// @vitest-environment happy-dom
import type { NodePoolView } from '@dcs/domain';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from '../../../lib/routing';
import { demoContext } from '../../../test/api';
import { demoClusterViews } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import { WorkerPoolCard } from './WorkerPoolCard';

afterEach(cleanup);

const demoPool = (healthCheck?: NodePoolView['healthCheck']): NodePoolView => {
  const pool = demoClusterViews().pools.find((p) => p.id === 'demo-md-0');
  if (!pool) throw new Error('the demo cluster has no worker pool');
  return { ...pool, ...(healthCheck ? { healthCheck } : {}) };
};

function factOf(pool: NodePoolView): string {
  renderInApp(
    <MemoryRouter>
      <WorkerPoolCard
        pool={pool}
        permissions={demoContext('operator').permissions}
        gatedReason={undefined}
        onAction={vi.fn()}
      />
    </MemoryRouter>,
  );
  return screen.getByRole('article').querySelector('[data-fact="health-check"]')?.textContent ?? '';
}

describe('the worker card’s health-check line (issue 26 item 1)', () => {
  it('names the health check and its counts, says when remediation is held back, and "None" without one', () => {
    expect(
      factOf(
        demoPool({ name: 'demo-md-0-mhc', expectedMachines: 3, currentHealthy: 2, held: false }),
      ),
    ).toBe('demo-md-0-mhc: 2 of 3 healthy');
    cleanup();
    expect(
      factOf(
        demoPool({ name: 'demo-md-0-mhc', expectedMachines: 3, currentHealthy: 1, held: true }),
      ),
    ).toBe('demo-md-0-mhc: 1 of 3 healthy, remediation held back');
    cleanup();
    expect(factOf(demoPool({ name: 'demo-md-0-mhc', held: false }))).toBe(
      'demo-md-0-mhc: not reported yet',
    );
    cleanup();
    expect(factOf(demoPool())).toBe('None');
  });
});
