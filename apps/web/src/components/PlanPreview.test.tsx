// @vitest-environment happy-dom
import { planScaleReplicas, type Plan } from '@dcs/domain';
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

  it('shows the API server’s dry-run verdict at each step, a refusal with its field, in both languages', () => {
    const p = plan();
    const withVerdict: Plan = {
      ...p,
      verdict: {
        ok: false,
        steps: [
          { index: 0, status: 'accepted', sequence: 'in-order', issues: [] },
          {
            index: 1,
            status: 'refused',
            sequence: 'in-order',
            error: { status: 422, reason: 'Invalid', message: 'denied' },
            issues: [
              {
                rule: 'R-API',
                path: 'metadata.annotations.sim.dcs.io/refuse',
                severity: 'error',
                messageKey: 'bff.api.refused',
                params: { status: 422 },
                message: 'frozen for maintenance',
              },
            ],
          },
        ],
      },
    };
    renderInApp(<PlanPreview plan={withVerdict} />, { locale: 'en' });
    const steps = screen.getAllByRole('listitem').filter((li) => li.closest('ol'));
    expect(steps[0]?.textContent).toContain('Accepted by the API server (dry run)');
    expect(steps[1]?.textContent).toContain('Refused by the API server (dry run)');
    expect(steps[1]?.textContent).toContain(
      'metadata.annotations.sim.dcs.io/refuse: frozen for maintenance',
    );
    expect(
      screen
        .getAllByRole('alert')
        .some((a) => a.textContent.includes('The API server refused 1 step in a dry run')),
    ).toBe(true);
    cleanup();
    renderInApp(<PlanPreview plan={withVerdict} />, { locale: 'zh-CN' });
    const region = screen.getByRole('region', { name: '计划' });
    expect(region.textContent).toContain('API 服务器试运行（dry run）已通过');
    expect(region.textContent).toContain('API 服务器试运行（dry run）拒绝');
    expect(region.textContent).toContain('API 服务器在试运行中拒绝了 1 个步骤');
  });

  it('says when the server accepted every step', () => {
    const p = plan();
    const steps = p.steps.map((_s, index) => ({
      index,
      status: 'accepted' as const,
      sequence: 'in-order' as const,
      issues: [],
    }));
    renderInApp(<PlanPreview plan={{ ...p, verdict: { ok: true, steps } }} />, { locale: 'en' });
    expect(screen.getByRole('region', { name: 'Plan' }).textContent).toContain(
      'The API server accepted every step in a dry run',
    );
  });
});
