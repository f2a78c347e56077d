// @vitest-environment happy-dom
import { planScaleReplicas } from '@dcs/domain';
import { anIpEntry, anIpPool, aMachineDeployment, aValidationContext } from '@dcs/domain/testing';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInApp } from '../test/render';
import { PlanPreview } from './PlanPreview';

afterEach(cleanup);

/** O-SCALE-UP with two entries appended (R-POOL-4), from a MachineDeployment that changed since. */
const plan = () =>
  planScaleReplicas(
    {
      replicas: 5,
      resourceVersion: '9',
      ipPoolAppend: {
        name: 'demo-worker-pool',
        resourceVersion: '1',
        entries: [anIpEntry(4), anIpEntry(5)],
      },
    },
    {
      machineDeployment: aMachineDeployment({ metadata: { resourceVersion: '10' } }),
      ipPool: anIpPool(),
    },
    aValidationContext(),
  );

describe('PlanPreview', () => {
  it('shows the steps, their verbs and the planner’s issues in Chinese', () => {
    const p = plan();
    renderInApp(<PlanPreview plan={p} />, { locale: 'zh-CN' });
    const region = screen.getByRole('region', { name: '计划' });
    expect(region.textContent).toContain('将 demo-md-0 的副本数从 3 调整为 5');
    expect(region.textContent).toContain('向 IP 池 demo-worker-pool 追加 2 个条目');
    expect(region.textContent).toContain('修补');
    for (const s of p.steps) expect(region.textContent).not.toContain(s.description.message);
    for (const i of p.issues) expect(region.textContent).not.toContain(i.message);
    expect(p.issues.some((i) => i.messageKey.startsWith('plan.'))).toBe(true);
  });

  it('shows the same plan in English', () => {
    const p = plan();
    renderInApp(<PlanPreview plan={p} />, { locale: 'en' });
    const region = screen.getByRole('region', { name: 'Plan' });
    for (const s of p.steps) expect(region.textContent).toContain(s.description.message);
  });
});
