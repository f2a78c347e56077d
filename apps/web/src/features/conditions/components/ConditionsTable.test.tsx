// @vitest-environment happy-dom
import { conditionViews } from '@dcs/domain';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../../../test/render';
import { ConditionsTable } from './ConditionsTable';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const conditions = conditionViews([
  { type: 'Ready', status: 'True' },
  { type: 'VMProvisioned', status: 'False', severity: 'Info', reason: 'Cloning' },
  { type: 'DisksAttached', status: 'False', severity: 'Error', reason: 'DatastoreFull' },
]);

function renderTable(url: string, locale: 'en' | 'zh-CN' = 'en') {
  renderInApp(
    <MemoryRouter initialEntries={[url]}>
      <ConditionsTable
        conditions={conditions}
        object={{ kind: 'DCSMachine', name: 'dev-west-full-vm-1' }}
        title="Conditions of DCSMachine dev-west-full-vm-1"
      />
    </MemoryRouter>,
    { locale },
  );
  return screen.getByRole('table', { name: 'Conditions of DCSMachine dev-west-full-vm-1' });
}

const rowOf = (table: HTMLElement, type: string) => {
  const row = within(table).getByText(type).closest('tr');
  if (!row) throw new Error(`no row ${type}`);
  return row;
};

describe('ConditionsTable (issue 12: conditions, complete; support links)', () => {
  it('U-6: a False condition of severity Info is not drawn as healthy, and sits above the True ones', () => {
    const table = renderTable('/x');
    const types = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.getAttribute('data-anchor'));
    expect(types).toEqual([
      'DCSMachine/dev-west-full-vm-1/DisksAttached',
      'DCSMachine/dev-west-full-vm-1/VMProvisioned',
      'DCSMachine/dev-west-full-vm-1/Ready',
    ]);
    const info = rowOf(table, 'VMProvisioned');
    expect(info.getAttribute('data-tone')).toBe('info');
    expect(within(info).getByText('False').closest('.MuiChip-root')?.className).toMatch(
      /colorInfo/,
    );
    expect(
      within(rowOf(table, 'Ready')).getByText('True').closest('.MuiChip-root')?.className,
    ).toMatch(/colorSuccess/);
  });

  it('a deep link to one condition highlights that row, and only it', () => {
    const table = renderTable('/x?condition=DCSMachine%2Fdev-west-full-vm-1%2FVMProvisioned');
    const focused = within(table)
      .getAllByRole('row')
      .filter((r) => r.getAttribute('aria-current') === 'location');
    expect(focused).toEqual([rowOf(table, 'VMProvisioned')]);
  });

  it('a link to another object highlights nothing here', () => {
    const table = renderTable('/x?condition=Machine%2Fdev-west-full-vm-1%2FVMProvisioned');
    expect(
      within(table)
        .getAllByRole('row')
        .some((r) => r.hasAttribute('aria-current')),
    ).toBe(false);
  });

  it('"Link for support" copies the absolute URL of this page focused on the condition', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const table = renderTable('/clusters/cpaas-system/dev-west/nodes/m-1');
    fireEvent.click(
      // The row says which condition; the button's name is the same on every row.
      within(rowOf(table, 'DisksAttached')).getByRole('button', { name: 'Link for support' }),
    );
    await waitFor(() => {
      expect(writeText).toHaveBeenCalledWith(
        `${window.location.origin}/clusters/cpaas-system/dev-west/nodes/m-1?condition=DCSMachine%2Fdev-west-full-vm-1%2FDisksAttached`,
      );
    });
    expect(await within(rowOf(table, 'DisksAttached')).findByText('Copied')).toBeTruthy();
  });

  it('speaks Chinese: the link button and the info hint are translated', () => {
    const table = renderTable('/x', 'zh-CN');
    expect(
      within(rowOf(table, 'Ready')).getByRole('button', { name: '支持人员链接' }),
    ).toBeTruthy();
    expect(within(rowOf(table, 'VMProvisioned')).getByTitle(/尚未健康/)).toBeTruthy();
  });
});
