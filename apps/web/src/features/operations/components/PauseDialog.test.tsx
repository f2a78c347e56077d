// @vitest-environment happy-dom
import { ANNOTATION_PAUSED, type NodePoolView, type ObjectSet } from '@dcs/domain';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoContext } from '../../../test/api';
import { demoClusterViews } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import { WorkerPoolCard } from '../../node-pools/components/WorkerPoolCard';
import { PauseDialog } from './PauseDialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const workerOf = (change?: (o: ObjectSet) => void): NodePoolView => {
  const pool = demoClusterViews(change).pools.find((p) => p.id === 'demo-md-0');
  if (!pool) throw new Error('the demo cluster has no worker pool');
  return pool;
};
const annotated = () =>
  workerOf((o) => {
    const md = o.machineDeployments?.[0];
    if (md) md.metadata.annotations = { [ANNOTATION_PAUSED]: 'true' };
  });
const inPausedCluster = () =>
  workerOf((o) => {
    const c = o.clusters?.[0];
    if (c?.spec) c.spec.paused = true;
  });

function card(pool: NodePoolView, role: 'operator' | 'viewer', locale: 'en' | 'zh-CN' = 'en') {
  const onAction = vi.fn();
  renderInApp(
    <MemoryRouter>
      <WorkerPoolCard
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

describe('pausing a pool (O-PAUSE / O-RESUME)', () => {
  it('R-PAUSE-1: a pool paused by its cluster or by its annotation shows a Paused chip naming the cause, in both languages', () => {
    const byCluster = card(inPausedCluster(), 'operator');
    expect(within(byCluster.article).getByText('Paused: cluster paused')).toBeTruthy();
    cleanup();
    const own = card(annotated(), 'operator', 'zh-CN');
    expect(within(own.article).getByText('已暂停：暂停注解')).toBeTruthy();
    cleanup();
    const none = card(workerOf(), 'operator');
    expect(within(none.article).queryByText(/^Paused/)).toBeNull();
  });

  it('O-PAUSE: the card’s menu offers Pause reconciliation, and Resume once the pool is annotated', () => {
    const { article, onAction } = card(workerOf(), 'operator');
    fireEvent.click(within(article).getByRole('button', { name: 'More actions for demo-md-0' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Pause reconciliation' }));
    expect(onAction).toHaveBeenCalledWith('pause', expect.objectContaining({ id: 'demo-md-0' }));
    cleanup();
    const paused = card(annotated(), 'operator');
    fireEvent.click(
      within(paused.article).getByRole('button', { name: 'More actions for demo-md-0' }),
    );
    expect(screen.getByRole('menuitem', { name: /Resume reconciliation/ })).toBeTruthy();
  });

  it('O-PAUSE for a viewer: the menu item is there, inert, and says which access review refused it', () => {
    const { article, onAction } = card(workerOf(), 'viewer');
    fireEvent.click(within(article).getByRole('button', { name: 'More actions for demo-md-0' }));
    const item = screen.getByRole('menuitem', { name: /Pause reconciliation/ });
    expect(item.getAttribute('aria-disabled')).toBe('true');
    expect(item.textContent).toMatch(/access review refused patch on machinedeployments/);
    fireEvent.click(item);
    expect(onAction).not.toHaveBeenCalled();
  });

  it('O-RESUME of a pool in a paused cluster says it stays paused (R-PAUSE-2); Preview sends a dry run of the pause route', async () => {
    const pool = inPausedCluster();
    renderInApp(
      <PauseDialog
        namespace="cpaas-system"
        cluster="demo"
        target={{
          kind: 'MachineDeployment',
          name: pool.name,
          label: pool.name,
          pool: pool.id,
          resourceVersion: pool.resourceVersions.md ?? '',
          pausedByItself: true,
          clusterPaused: true,
        }}
        onClose={vi.fn()}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Resume reconciliation of demo-md-0' });
    expect(within(dialog).getByText(/stays paused until the cluster is resumed/)).toBeTruthy();
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
      /\/api\/v1\/clusters\/cpaas-system\/demo\/nodepools\/demo-md-0\/pause\?dryRun=true$/,
    );
    expect(sent[0]?.body).toEqual({ resourceVersion: '1', paused: false });
  });
});
