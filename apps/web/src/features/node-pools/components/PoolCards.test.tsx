// @vitest-environment happy-dom
import type { NodePoolView } from '@dcs/domain';
import { cleanup, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoClusterViews } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import type { ObjectSet } from '@dcs/domain';
import { ControlPlaneCard } from './ControlPlaneCard';
import { WorkerPoolCard } from './WorkerPoolCard';

afterEach(cleanup);

const poolsOf = (change: (o: ObjectSet) => void) => demoClusterViews(change).pools;

function renderCard(pool: NodePoolView | undefined, locale: 'en' | 'zh-CN' = 'en') {
  if (!pool) throw new Error('no such pool in the demo cluster');
  const Card = pool.kind === 'control-plane' ? ControlPlaneCard : WorkerPoolCard;
  renderInApp(
    <MemoryRouter>
      <Card pool={pool} permissions={undefined} gatedReason={undefined} onAction={vi.fn()} />
    </MemoryRouter>,
    { locale },
  );
  return screen.getByRole('article');
}

describe('a pool card shows what the rules say about the pool as it stands', () => {
  it('R-DISK-5: a running pool with /var/cpaas nowhere is not green and says why', () => {
    const pools = poolsOf((o) => {
      for (const entry of o.ipPools?.[0]?.spec?.pool ?? []) entry.persistentDisk = [];
    });
    const card = renderCard(pools.find((p) => p.id === 'demo-md-0'));
    const chip = within(card).getByLabelText(/^Status: Running/);
    expect(chip.getAttribute('aria-label')).toBe('Status: Running, with 1 problem');
    expect(chip.className).toMatch(/colorError/);
    expect(within(card).getByRole('group', { name: 'Problems' }).textContent).toMatch(
      /\/var\/cpaas is mounted neither by machine template demo-md-0-template nor by a persistent disk of 3 entries/,
    );
  });

  it('R-DISK-5: the legacy-layout warning and its badge lead to the pool’s migration plan', () => {
    const pools = poolsOf((o) => {
      const vm = o.machineTemplates?.[0]?.spec?.template.spec.vmConfig;
      if (vm)
        vm.dcsMachineDiskSpec = [
          ...(vm.dcsMachineDiskSpec ?? []),
          { quantity: 40, path: '/var/cpaas', format: 'xfs' },
        ];
      for (const entry of o.ipPools?.[0]?.spec?.pool ?? []) entry.persistentDisk = [];
    });
    const card = renderCard(pools.find((p) => p.id === 'demo-md-0'));
    const problems = within(card).getByRole('group', { name: 'Problems' });
    expect(problems.textContent).toMatch(/Legacy disk layout: machine template demo-md-0-template/);
    const plan = '/clusters/cpaas-system/demo/node-pools/demo-md-0/disk-migration';
    expect(
      within(problems).getByRole('link', { name: 'Migration plan' }).getAttribute('href'),
    ).toBe(plan);
    expect(
      within(card).getByRole('link', { name: 'Legacy disk layout' }).getAttribute('href'),
    ).toBe(plan);
  });

  it('issue 26 item 6: a machine whose drain a PodDisruptionBudget refuses is flagged on its pool’s card, in both languages', () => {
    const message =
      "Drain not completed yet (started at 2026-01-01T00:50:00Z):\n* Pods with eviction failed:\n  * Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently: default/web-1";
    const pools = poolsOf((o) => {
      const m = o.machines?.[0];
      if (!m) return;
      m.metadata.deletionTimestamp = '2026-01-01T00:49:00Z';
      m.status = {
        ...m.status,
        v1beta2: {
          conditions: [{ type: 'Deleting', status: 'True', reason: 'DrainingNode', message }],
        },
      };
    });
    const pool = pools.find((p) => p.id === 'demo-md-0');
    const card = renderCard(pool);
    expect(within(card).getByRole('group', { name: 'Problems' }).textContent).toContain(
      'Drain blocked by PodDisruptionBudget web (needs 2 healthy Pods, has 2): 1 machine waits to be deleted: demo-md-0-abc12-m1',
    );
    cleanup();
    const zh = renderCard(pool, 'zh-CN');
    expect(within(zh).getByRole('group', { name: '问题' }).textContent).toContain(
      '排空被 PodDisruptionBudget web 阻止（需要 2 个健康 Pod，现有 2 个）：1 个 machine 等待删除：demo-md-0-abc12-m1',
    );
  });

  it('a healthy running pool stays green', () => {
    const card = renderCard(demoClusterViews().pools.find((p) => p.id === 'demo-md-0'));
    const chip = within(card).getByLabelText('Status: Running');
    expect(chip.className).toMatch(/colorSuccess/);
  });

  it('U-2: a control plane patched to 4 replicas is flagged, not "4 replicas, fixed"', () => {
    const pools = poolsOf((o) => {
      const spec = o.kubeadmControlPlanes?.[0]?.spec;
      if (spec) spec.replicas = 4;
    });
    const card = renderCard(pools.find((p) => p.kind === 'control-plane'));
    expect(card.textContent).not.toMatch(/fixed/);
    expect(card.textContent).toMatch(/4 replicas; the console keeps 3/);
    expect(within(card).getByRole('group', { name: 'Problems' }).textContent).toMatch(
      /The control plane has 4 replicas: an even number gives etcd no more fault tolerance/,
    );
  });

  it('U-2: in Chinese too', () => {
    const pools = poolsOf((o) => {
      const spec = o.kubeadmControlPlanes?.[0]?.spec;
      if (spec) spec.replicas = 4;
    });
    const card = renderCard(
      pools.find((p) => p.kind === 'control-plane'),
      'zh-CN',
    );
    expect(card.textContent).toMatch(/4 个副本；控制台保持为 3 个/);
    expect(card.textContent).toMatch(/控制平面有 4 个副本/);
  });
});
