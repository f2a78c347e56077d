// @vitest-environment happy-dom
import { planDiskMigration, type DCSMachineTemplate, type DiskMigrationPlan } from '@dcs/domain';
import {
  aMachineDeployment,
  aMachineTemplate,
  anIpEntry,
  anIpPool,
  aValidationContext,
} from '@dcs/domain/testing';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../../../test/render';
import { DiskMigrationPlanView } from './DiskMigrationPlanView';

afterEach(cleanup);

/** The older document's layout: the template mounts /var/cpaas; the entries have no disk yet. */
function legacyPlan(): DiskMigrationPlan {
  const tpl: DCSMachineTemplate = aMachineTemplate();
  const vm = tpl.spec?.template.spec.vmConfig;
  if (vm)
    vm.dcsMachineDiskSpec = [
      ...(vm.dcsMachineDiskSpec ?? []),
      { quantity: 60, datastoreClusterName: 'ds-legacy', path: '/var/cpaas', format: 'xfs' },
    ];
  const bare = [1, 2, 3].map((n) => ({ ...anIpEntry(n), persistentDisk: [] }));
  const pool = anIpPool({ metadata: { resourceVersion: '1' } });
  if (pool.spec) pool.spec.pool = bare;
  const ctx = aValidationContext({
    ipPools: aValidationContext().ipPools.map((p) => ({ ...p, entries: bare })),
  });
  const md = aMachineDeployment({
    metadata: { resourceVersion: '10' },
    spec: { strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } },
  });
  return planDiskMigration({ machineDeployment: md, machineTemplate: tpl, ipPool: pool }, ctx);
}

function renderPlan(plan: DiskMigrationPlan, locale: 'en' | 'zh-CN' = 'en') {
  renderInApp(
    <MemoryRouter>
      <DiskMigrationPlanView plan={plan} cluster="demo" />
    </MemoryRouter>,
    { locale },
  );
}

describe('the R-DISK-5 migration plan on screen', () => {
  it('R-DISK-5: says first that it is read-only, then each step in order as a named region with its objects, operation, effects and status', () => {
    renderPlan(legacyPlan());
    expect(
      screen.getByRole('heading', {
        level: 2,
        name: 'Migrate demo-md-0 to pool-managed persistent disks',
      }),
    ).toBeTruthy();
    expect(screen.getByText('Read-only guidance: this page changes nothing')).toBeTruthy();
    const steps = screen
      .getAllByRole('region')
      .map((r) => r.getAttribute('aria-labelledby'))
      .map((id) => (id ? document.getElementById(id)?.textContent : undefined))
      .filter((name) => name?.startsWith('Step '));
    expect(steps).toEqual([
      'Step 1: DCS provider version',
      'Step 2: maxSurge 0',
      'Step 3: A /var/cpaas persistent disk for every entry',
      'Step 4: A machine template without /var/cpaas, rolled out',
      'Step 5: Check the result',
    ]);
    // R-MD-3: maxSurge 0 is the next step, done through O-EDIT-STRATEGY.
    const surge = screen.getByRole('region', { name: 'Step 2: maxSurge 0' });
    expect(within(surge).getByText('To do')).toBeTruthy();
    expect(surge.textContent).toContain('“Rollout settings” on the pool’s card (O-EDIT-STRATEGY)');
    expect(surge.textContent).toContain('MachineDeployment demo-md-0');
    const disks = screen.getByRole('region', {
      name: 'Step 3: A /var/cpaas persistent disk for every entry',
    });
    expect(within(disks).getByText('After the steps before it')).toBeTruthy();
    expect(within(disks).getByRole('link', { name: 'demo-worker-pool' }).getAttribute('href')).toBe(
      '/clusters/cpaas-system/demo/ip-pools/demo-worker-pool',
    );
    // What happens to the data on each replaced VM, and what the documents leave open, marked.
    const sw = screen.getByRole('region', {
      name: 'Step 4: A machine template without /var/cpaas, rolled out',
    });
    expect(sw.textContent).toContain('Data on each replaced VM');
    expect(within(sw).getByRole('heading', { name: 'Not settled by the documents' })).toBeTruthy();
    expect(sw.textContent).toContain('Not settled by the documents: whether the platform needs');
  });

  it('R-DISK-5: each step’s kubectl equivalent has its own copy button, named by its step, that copies exactly those commands', () => {
    const plan = legacyPlan();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPlan(plan);
    const copies = screen.getAllByRole('button', { name: /^Copy the kubectl commands of step/ });
    expect(copies.map((b) => b.getAttribute('aria-label'))).toEqual(
      ['1', '2', '3', '4', '5'].map((n) => `Copy the kubectl commands of step ${n}`),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Copy the kubectl commands of step 2' }));
    const surge = plan.steps[1]?.kubectl ?? [];
    expect(surge[0]).toMatch(/^kubectl patch machinedeployment demo-md-0 /);
    expect(writeText).toHaveBeenCalledWith(surge.join('\n\n'));
    expect(screen.getByLabelText('kubectl commands of step 2').textContent).toBe(
      surge.join('\n\n'),
    );
  });

  it('R-DISK-5: a pool already on persistent disks says there is nothing to migrate; a done step has nothing left to run', () => {
    const plan = planDiskMigration(
      {
        machineDeployment: aMachineDeployment({
          spec: { strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } },
        }),
        machineTemplate: aMachineTemplate(),
        ipPool: anIpPool(),
      },
      aValidationContext(),
    );
    renderPlan(plan);
    expect(
      screen.getByText(
        'Pool demo-md-0 does not use the legacy disk layout with this provider: nothing is left to migrate.',
      ),
    ).toBeTruthy();
    const surge = screen.getByRole('region', { name: 'Step 2: maxSurge 0' });
    expect(within(surge).getByText('Done')).toBeTruthy();
    expect(within(surge).getByText('Nothing left to run for this step.')).toBeTruthy();
  });

  it('R-DISK-5 in Chinese: headings, statuses, the read-only notice and the plan’s own texts', () => {
    renderPlan(legacyPlan(), 'zh-CN');
    expect(
      screen.getByRole('heading', { level: 2, name: '将 demo-md-0 迁移到由池管理的持久磁盘' }),
    ).toBeTruthy();
    expect(screen.getByText('只读指导：本页面不做任何更改')).toBeTruthy();
    const surge = screen.getByRole('region', { name: '第 2 步：将 maxSurge 设为 0' });
    expect(within(surge).getByText('待执行')).toBeTruthy();
    expect(surge.textContent).toContain('将 demo-md-0 的 maxSurge 设为 0（当前为 1）');
    expect(screen.getByRole('button', { name: '复制第 2 步的 kubectl 命令' })).toBeTruthy();
    expect(screen.getAllByRole('heading', { name: '文档未说明' }).length).toBeGreaterThan(0);
  });
});
