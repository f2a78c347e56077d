// @vitest-environment happy-dom
import { v1beta2ConditionViews } from '@dcs/domain';
import { cleanup, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInApp } from '../../../test/render';
import { V1Beta2Conditions } from './V1Beta2Conditions';

afterEach(cleanup);

const md = {
  metadata: { generation: 3 },
  status: {
    v1beta2: {
      conditions: [
        { type: 'Available', status: 'True' as const, reason: 'Available', observedGeneration: 2 },
        { type: 'UpToDate', status: 'True' as const, reason: 'UpToDate', observedGeneration: 3 },
      ],
    },
  },
};

function show(conditions: ReturnType<typeof v1beta2ConditionViews>, locale: 'en' | 'zh-CN' = 'en') {
  renderInApp(
    <MemoryRouter>
      <V1Beta2Conditions conditions={conditions} kind="MachineDeployment" name="demo-md-0" />
    </MemoryRouter>,
    { locale },
  );
}

describe('V1Beta2Conditions (issue 23)', () => {
  it('lists the v1beta2 conditions; one written for an older generation is marked stale, with the generation', () => {
    show(v1beta2ConditionViews(md));
    const table = screen.getByRole('table', {
      name: 'MachineDeployment demo-md-0: Cluster API v1beta2 conditions',
    });
    const row = (type: string) => within(table).getAllByText(type)[0]?.closest('tr') as HTMLElement;
    const stale = within(row('Available')).getByText('Stale');
    expect(stale.closest('[title]')?.getAttribute('title')).toMatch(/generation 2/);
    expect(within(row('UpToDate')).queryByText('Stale')).toBeNull();
  });

  it('says what is missing where the cluster writes v1beta1 status only, in both languages', () => {
    show(undefined);
    expect(screen.getByTestId('v1beta2-missing').textContent).toMatch(
      /only Cluster API v1beta1 status for demo-md-0/,
    );
    cleanup();
    show(undefined, 'zh-CN');
    expect(screen.getByTestId('v1beta2-missing').textContent).toMatch(/只为 demo-md-0 写入/);
  });
});
