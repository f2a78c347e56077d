// @vitest-environment happy-dom
import type { NodePoolView, ObjectSet } from '@dcs/domain';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoContext } from '../../../test/api';
import { demoClusterViews } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import { EditStrategyDialog, editStrategyRequest, strategyTexts } from './EditStrategyDialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const workerOf = (change?: (o: ObjectSet) => void): NodePoolView => {
  const pool = demoClusterViews(change).pools.find((p) => p.id === 'demo-md-0');
  if (!pool) throw new Error('the demo cluster has no worker pool');
  return pool;
};
// The demo pool's IP pool declares persistent disks; this one surges anyway (R-MD-3's warning).
const surging = () =>
  workerOf((o) => {
    const ru = o.machineDeployments?.[0]?.spec?.strategy?.rollingUpdate;
    if (ru) ru.maxSurge = 1;
    if (ru) ru.maxUnavailable = 0;
  });

function open(pool: NodePoolView, locale: 'en' | 'zh-CN' = 'en') {
  renderInApp(
    <EditStrategyDialog
      namespace="cpaas-system"
      cluster="demo"
      pool={pool}
      context={demoContext()}
      onClose={vi.fn()}
    />,
    { locale },
  );
  return screen.getByRole('dialog');
}

describe('Rollout settings (O-EDIT-STRATEGY)', () => {
  it('O-EDIT-STRATEGY: starts from the pool’s values and sends only the fields the user changed, an emptied one as null', () => {
    const pool = workerOf();
    expect(strategyTexts(pool)).toEqual({
      maxSurge: '0',
      maxUnavailable: '1',
      nodeDrainTimeout: '1m',
      nodeDeletionTimeout: '5m',
      nodeVolumeDetachTimeout: '',
    });
    expect(
      editStrategyRequest(pool, {
        ...strategyTexts(pool),
        maxUnavailable: '25%',
        nodeDrainTimeout: ' 5m ',
        nodeDeletionTimeout: '',
      }),
    ).toEqual({
      resourceVersion: '1',
      maxUnavailable: '25%',
      nodeDrainTimeout: '5m',
      // Emptied: removed from the object (issue 12), Cluster API's default applies again.
      nodeDeletionTimeout: null,
    });
  });

  it('O-EDIT-STRATEGY with R-MD-3: maxSurge 1 on a pool with persistent disks is an error at the field, and Preview stays off', async () => {
    const dialog = open(workerOf());
    expect(within(dialog).getByRole('heading', { name: 'Rollout settings of demo-md-0' }));
    const preview = within(dialog).getByRole('button', { name: 'Preview plan' });
    // Nothing changed yet: nothing to preview.
    expect(preview.hasAttribute('disabled')).toBe(true);
    const surge = within(dialog).getByRole('textbox', { name: 'maxSurge' });
    fireEvent.change(surge, { target: { value: '1' } });
    expect(surge.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByText(/maxSurge must be 0: this pool relies on persistent disks/));
    expect(preview.hasAttribute('disabled')).toBe(true);

    fireEvent.change(surge, { target: { value: '0' } });
    const drain = within(dialog).getByRole('textbox', { name: 'Node drain timeout' });
    fireEvent.change(drain, { target: { value: '5 minutes' } });
    expect(drain.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(drain, { target: { value: '5m' } });
    expect(drain.getAttribute('aria-invalid')).toBe('false');
    expect(preview.hasAttribute('disabled')).toBe(false);

    // Preview sends the change as a dry run of the strategy route.
    const sent: { url: string; body: unknown }[] = [];
    vi.stubGlobal('fetch', (input: string, init?: { body?: string }) => {
      sent.push({ url: input, body: JSON.parse(init?.body ?? 'null') as unknown });
      return Promise.resolve(
        new Response(JSON.stringify({ code: 'Invalid', message: 'stop here', details: [] }), {
          status: 422,
        }),
      );
    });
    fireEvent.click(preview);
    await waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]?.url).toMatch(
      /\/api\/v1\/clusters\/cpaas-system\/demo\/nodepools\/demo-md-0\/strategy\?dryRun=true$/,
    );
    expect(sent[0]?.body).toEqual({ resourceVersion: '1', nodeDrainTimeout: '5m' });
  });

  it('O-EDIT-STRATEGY with R-MD-3: a pool that still surges is warned at maxSurge, and 0 clears it', () => {
    const dialog = open(surging());
    const surge = within(dialog).getByRole('textbox', { name: 'maxSurge' });
    expect(within(dialog).getByText(/This pool relies on persistent disks, but its maxSurge is 1/));
    expect(surge.getAttribute('aria-invalid')).toBe('false');
    fireEvent.change(surge, { target: { value: '0' } });
    // 0 and 0 is R-MD-2's error, at maxUnavailable.
    const unavailable = within(dialog).getByRole('textbox', { name: 'maxUnavailable' });
    expect(unavailable.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(unavailable, { target: { value: '1' } });
    expect(unavailable.getAttribute('aria-invalid')).toBe('false');
    expect(within(dialog).queryByText(/relies on persistent disks/)).toBeNull();
    expect(
      within(dialog).getByRole('button', { name: 'Preview plan' }).hasAttribute('disabled'),
    ).toBe(false);
  });

  it('O-EDIT-STRATEGY: during a rollout the dialog says that new settings apply from its next step', () => {
    const pool = workerOf((o) => {
      const md = o.machineDeployments?.[0];
      if (md?.spec) md.spec.template.spec.version = 'v1.34.1';
    });
    expect(pool.rollout.inProgress).toBe(true);
    const dialog = open(pool);
    expect(within(dialog).getByText(/A rolling update is in progress/)).toBeTruthy();
  });

  it('O-EDIT-STRATEGY in Chinese', () => {
    const dialog = open(workerOf(), 'zh-CN');
    expect(within(dialog).getByRole('heading', { name: 'demo-md-0 的滚动更新设置' }));
    expect(within(dialog).getByRole('textbox', { name: '节点驱逐超时' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: '预览计划' })).toBeTruthy();
  });
});
