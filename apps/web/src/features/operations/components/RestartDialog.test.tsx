// @vitest-environment happy-dom
import type { NodePoolView, ObjectSet, Plan } from '@dcs/domain';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlanPreview } from '../../../components/PlanPreview';
import { demoContext } from '../../../test/api';
import { demoClusterViews } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import { ControlPlaneCard } from '../../node-pools/components/ControlPlaneCard';
import { WorkerPoolCard } from '../../node-pools/components/WorkerPoolCard';
import { localTimeToUtc, RestartDialog } from './RestartDialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const poolOf = (id: string, change?: (o: ObjectSet) => void): NodePoolView => {
  const pool = demoClusterViews(change).pools.find((p) => p.id === id);
  if (!pool) throw new Error(`the demo cluster has no pool ${id}`);
  return pool;
};

function card(pool: NodePoolView, role: 'operator' | 'viewer', locale: 'en' | 'zh-CN' = 'en') {
  const onAction = vi.fn();
  const Card = pool.kind === 'control-plane' ? ControlPlaneCard : WorkerPoolCard;
  renderInApp(
    <MemoryRouter>
      <Card
        pool={pool}
        permissions={demoContext(role).permissions}
        gatedReason={undefined}
        onAction={onAction}
      />
    </MemoryRouter>,
    { locale },
  );
  return { article: screen.getByRole('article'), onAction };
}

/** A plan as the BFF answers a restart's Preview (the fields PlanPreview reads). */
const restartPlan = (restart: NonNullable<Plan['effects']['restart']>): Plan => ({
  operation: 'O-RESTART',
  namespace: 'cpaas-system',
  target: { kind: 'MachineDeployment', name: 'demo-md-0' },
  steps: [],
  kubectl: [],
  issues: [],
  diffs: [],
  effects: { restart },
});

describe('restarting a pool’s machines (O-RESTART)', () => {
  it('the card’s menu offers Restart machines, for a worker pool and for the control plane', () => {
    const worker = card(poolOf('demo-md-0'), 'operator');
    fireEvent.click(
      within(worker.article).getByRole('button', { name: 'More actions for demo-md-0' }),
    );
    fireEvent.click(screen.getByRole('menuitem', { name: 'Restart machines' }));
    expect(worker.onAction).toHaveBeenCalledWith(
      'restart',
      expect.objectContaining({ id: 'demo-md-0' }),
    );
    cleanup();
    const cp = card(poolOf('control-plane'), 'operator');
    fireEvent.click(
      within(cp.article).getByRole('button', { name: 'More actions for Control plane' }),
    );
    fireEvent.click(screen.getByRole('menuitem', { name: 'Restart machines' }));
    expect(cp.onAction).toHaveBeenCalledWith(
      'restart',
      expect.objectContaining({ id: 'control-plane' }),
    );
  });

  it('for a viewer the menu item is there, inert, and says which access review refused it; in Chinese too', () => {
    const { article, onAction } = card(poolOf('demo-md-0'), 'viewer');
    fireEvent.click(within(article).getByRole('button', { name: 'More actions for demo-md-0' }));
    const item = screen.getByRole('menuitem', { name: /Restart machines/ });
    expect(item.getAttribute('aria-disabled')).toBe('true');
    expect(item.textContent).toMatch(/access review refused patch on machinedeployments/);
    fireEvent.click(item);
    expect(onAction).not.toHaveBeenCalled();
    cleanup();
    const zh = card(poolOf('demo-md-0'), 'viewer', 'zh-CN');
    fireEvent.click(within(zh.article).getByRole('button', { name: 'demo-md-0 的更多操作' }));
    expect(
      screen.getByRole('menuitem', { name: /重启 machine/ }).getAttribute('aria-disabled'),
    ).toBe('true');
  });

  it('a scheduled restart is on the card, with its time in UTC', () => {
    const { article } = card(
      poolOf('demo-md-0', (o) => {
        const md = o.machineDeployments?.[0];
        if (md?.spec) md.spec.rolloutAfter = '2099-01-01T00:00:00Z';
      }),
      'operator',
    );
    expect(within(article).getByText('Restart scheduled')).toBeTruthy();
    expect(within(article).getByText(/\(2099-01-01T00:00:00Z\)/)).toBeTruthy();
  });

  it('Now sends no time (the BFF takes its own clock); At a time sends the typed local time as UTC', async () => {
    const pool = poolOf('demo-md-0');
    renderInApp(
      <RestartDialog
        namespace="cpaas-system"
        cluster="demo"
        target={{
          kind: 'MachineDeployment',
          name: pool.name,
          label: pool.name,
          pool: pool.id,
          resourceVersion: pool.resourceVersions.md ?? '',
          replicas: 3,
          strategy: 'maxSurge 0, maxUnavailable 1',
          restart: { after: '2099-01-01T00:00:00Z', scheduled: true },
        }}
        onClose={vi.fn()}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Restart the machines of demo-md-0' });
    expect(within(dialog).getByText(/each of the 3 machines of demo-md-0/)).toBeTruthy();
    expect(within(dialog).getByText(/A restart is already scheduled for/)).toBeTruthy();
    const sent: { url: string; body: unknown }[] = [];
    vi.stubGlobal('fetch', (input: string, init?: { body?: string }) => {
      sent.push({ url: input, body: JSON.parse(init?.body ?? 'null') as unknown });
      return Promise.resolve(
        new Response(JSON.stringify({ code: 'Invalid', message: 'stop here', details: [] }), {
          status: 422,
        }),
      );
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview plan' }));
    await waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]?.url).toMatch(
      /\/api\/v1\/clusters\/cpaas-system\/demo\/nodepools\/demo-md-0\/restart\?dryRun=true$/,
    );
    expect(sent[0]?.body).toEqual({ resourceVersion: '1' });

    fireEvent.click(within(dialog).getByRole('radio', { name: 'At a time' }));
    const preview = within(dialog).getByRole('button', { name: 'Preview plan' });
    // No time yet: nothing to preview.
    expect(
      preview.hasAttribute('disabled') || preview.getAttribute('aria-disabled') === 'true',
    ).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/^Time \(/), {
      target: { value: '2099-01-02T06:30' },
    });
    const utc = localTimeToUtc('2099-01-02T06:30');
    expect(
      within(dialog).getByText(
        `Sent as ${utc ?? ''}. Cluster API starts when the management cluster’s clock passes it.`,
      ),
    ).toBeTruthy();
    fireEvent.click(preview);
    await waitFor(() => {
      expect(sent).toHaveLength(2);
    });
    expect(sent[1]?.body).toEqual({ resourceVersion: '1', at: utc });
  });

  it('localTimeToUtc: a datetime-local value as the UTC instant it means; incomplete text is none', () => {
    const utc = localTimeToUtc('2099-01-02T06:30');
    expect(utc).toMatch(/^2099-01-0[12]T\d{2}:\d{2}:00Z$/);
    expect(Date.parse(utc ?? '')).toBe(new Date('2099-01-02T06:30').getTime());
    expect(localTimeToUtc('2099-01-02')).toBeUndefined();
    expect(localTimeToUtc('')).toBeUndefined();
  });

  it('the plan lists the machines replaced in their order, step by step; OnDelete lists them as deleted', () => {
    renderInApp(
      <PlanPreview
        plan={restartPlan({
          rolloutAfter: '2026-03-01T10:00:00Z',
          plannedAt: '2026-03-01T10:00:00Z',
          scheduled: false,
          machines: ['a', 'b'],
          steps: [
            { create: 1, delete: [] },
            { create: 0, delete: ['a'] },
            { create: 1, delete: ['b'] },
          ],
          order: 'Random',
        })}
      />,
    );
    const list = screen.getByRole('list', { name: 'The 2 machines replaced, in order' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Create 1 new machine',
      'Drain and delete a',
      'Create 1 new machine and drain and delete b, at the same time',
    ]);
    cleanup();
    renderInApp(
      <PlanPreview
        plan={restartPlan({
          rolloutAfter: '2026-03-01T10:00:00Z',
          plannedAt: '2026-03-01T10:00:00Z',
          scheduled: false,
          machines: ['a', 'b'],
          steps: [],
          order: 'OnDelete',
        })}
      />,
      { locale: 'zh-CN' },
    );
    expect(screen.getByText('在每台 machine 被删除时逐台替换：a, b')).toBeTruthy();
  });
});
