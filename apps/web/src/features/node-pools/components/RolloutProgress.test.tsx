// @vitest-environment happy-dom
import type { RolloutView } from '@dcs/domain';
import { cleanup, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInApp } from '../../../test/render';
import { RolloutProgress } from './RolloutProgress';

afterEach(cleanup);

/** The last old machine is gone; its replacement is still provisioning (domain keeps it in progress). */
const rollout: RolloutView = {
  strategyType: 'RollingUpdate',
  newMachineSet: {
    name: 'dev-west-full-def34',
    replicas: 3,
    current: 3,
    ready: 2,
    available: 2,
    infrastructureTemplate: 'dev-west-full-template-2',
  },
  oldMachineSets: [
    {
      name: 'dev-west-full-abc12',
      replicas: 0,
      current: 0,
      ready: 0,
      available: 0,
      infrastructureTemplate: 'dev-west-full-template',
    },
  ],
  inProgress: true,
  desired: 3,
  updated: 3,
  updatedReady: 2,
  progress: 1,
  surge: { inUse: 0, allowed: 0 },
  unavailable: { inUse: 1, allowed: 1 },
};

describe('RolloutProgress (issue 12: rollouts, complete)', () => {
  it('keeps the bar while the last replacement provisions, and lists old and new MachineSets linked to their machines', () => {
    renderInApp(
      <MemoryRouter>
        <RolloutProgress rollout={rollout} namespace="cpaas-system" cluster="dev-west" />
      </MemoryRouter>,
    );
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(screen.getByText(/3 of 3 machines updated, 2 ready/)).toBeTruthy();
    const sets = screen.getByRole('list', { name: 'MachineSets of this rollout' });
    const [fresh, old] = within(sets).getAllByRole('listitem');
    expect(fresh?.textContent).toMatch(
      /New.*dev-west-full-def34.*3 wanted, 3 exist, 2 ready; template dev-west-full-template-2/,
    );
    expect(old?.textContent).toMatch(/Old.*dev-west-full-abc12.*0 wanted, 0 exist, 0 ready/);
    expect(
      within(sets)
        .getByRole('link', { name: 'Machines of dev-west-full-abc12' })
        .getAttribute('href'),
    ).toBe('/clusters/cpaas-system/dev-west/nodes?set=dev-west-full-abc12');
  });

  it('shows nothing once the rollout is done', () => {
    renderInApp(
      <MemoryRouter>
        <RolloutProgress
          rollout={{ ...rollout, inProgress: false }}
          namespace="cpaas-system"
          cluster="dev-west"
        />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
