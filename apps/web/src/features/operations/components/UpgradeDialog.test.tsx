// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClusterContext } from '../../../api/get-cluster-context';
import { demoContext } from '../../../test/api';
import { demoClusterViews } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import { UpgradeDialog, type UpgradeTab } from './UpgradeDialog';

afterEach(cleanup);

const pool = demoClusterViews().pools.find((p) => p.id === 'demo-md-0');
if (!pool) throw new Error('the demo cluster has no worker pool');

function open(
  initialTab: UpgradeTab,
  context: ClusterContext = demoContext(),
  locale: 'en' | 'zh-CN' = 'en',
) {
  if (!pool) throw new Error('no pool');
  renderInApp(
    <UpgradeDialog
      namespace="cpaas-system"
      cluster="demo"
      pool={pool}
      context={context}
      initialTab={initialTab}
      onClose={vi.fn()}
    />,
    { locale },
  );
  return screen.getByRole('dialog');
}

const withControlPlane = (version: string | undefined): ClusterContext => {
  const ctx = demoContext();
  return { ...ctx, validation: { ...ctx.validation, controlPlaneVersion: version } };
};

describe('Upgrade dialog', () => {
  it('"Edit bootstrap" opens a dialog titled by what it does, not "Upgrade <pool>"', () => {
    const dialog = open('bootstrap');
    expect(dialog.getAttribute('aria-labelledby')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Update the bootstrap template of demo-md-0' })).toBe(
      dialog,
    );
    // Switching to another tab retitles it.
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Machine infrastructure' }));
    expect(screen.getByRole('dialog', { name: 'Upgrade demo-md-0: machine infrastructure' })).toBe(
      dialog,
    );
  });

  it('the memory hint follows the field’s value', () => {
    const dialog = open('infrastructure');
    const memory = within(dialog).getByRole<HTMLInputElement>('spinbutton', {
      name: /^Memory \(MB\)/,
    });
    expect(memory.value).toBe('8192');
    const hint = () => document.getElementById(memory.getAttribute('aria-describedby') ?? '');
    expect(hint()?.textContent).toBe('8,192 MB = 8 GiB');
    fireEvent.change(memory, { target: { value: '16384' } });
    expect(hint()?.textContent).toBe('16,384 MB = 16 GiB');
    fireEvent.change(memory, { target: { value: '3000' } });
    expect(hint()?.textContent).toBe('3,000 MB ≈ 2.93 GiB');
  });

  it('R-MD-4: with the control plane older, says the control plane holds the pool back', () => {
    // The pool runs v1.33.4, as does the control plane; the catalog offers v1.34.1 and v1.35.0.
    const dialog = open('kubernetes', withControlPlane('v1.33.4'));
    const note = within(dialog).getByRole('alert');
    expect(note.textContent).toMatch(
      /The catalog offers v1\.35\.0, but workers may not be newer than the control plane, which runs v1\.33\.4 \(R-MD-4\)/,
    );
    expect(note.textContent).not.toMatch(/offers nothing newer/);
  });

  it('R-MD-4: says it in Chinese too, and offers what the control plane allows', () => {
    const zh = open('kubernetes', withControlPlane('v1.33.4'), 'zh-CN');
    expect(within(zh).getByRole('alert').textContent).toMatch(/控制平面运行的是 v1\.33\.4/);
    cleanup();
    const dialog = open('kubernetes', withControlPlane('v1.34.1'));
    expect(within(dialog).getByRole('combobox', { name: /^Target version/ }).textContent).toBe(
      'v1.34.1',
    );
  });
});
