// @vitest-environment happy-dom
import type { NodePoolView, PoolHealthCheckView } from '@dcs/domain';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoContext } from '../../../test/api';
import { demoClusterViews } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import { WorkerPoolCard } from '../../node-pools/components/WorkerPoolCard';
import { HealthCheckDialog } from './HealthCheckDialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const worker = (): NodePoolView => {
  const pool = demoClusterViews().pools.find((p) => p.id === 'demo-md-0');
  if (!pool) throw new Error('the demo cluster has no worker pool');
  return pool;
};

const HELD: PoolHealthCheckView = {
  name: 'demo-md-0-mhc',
  resourceVersion: '12',
  unhealthyNodeConditions: [{ type: 'Ready', status: 'Unknown', timeoutSeconds: 300 }],
  nodeStartupTimeoutSeconds: 600,
  limit: { kind: 'maxUnhealthy', maxUnhealthy: 0 },
  externalRemediation: false,
  expectedMachines: 3,
  currentHealthy: 2,
  remediationsAllowed: 0,
  targets: ['m-a', 'm-b', 'm-c'],
  remediationAllowed: {
    status: 'False',
    reason: 'TooManyUnhealthy',
    message:
      'Remediation is not allowed, the number of not started or unhealthy machines exceeds maxUnhealthy (total: 3, unhealthy: 1, maxUnhealthy: 0)',
  },
  stale: false,
  machines: [
    {
      name: 'm-b',
      healthCheck: {
        status: 'False',
        reason: 'UnhealthyNode',
        message:
          'Health check failed: Condition Ready on Node is reporting status Unknown for more than 5m0s',
      },
      remediating: false,
      deleting: false,
    },
    { name: 'm-a', healthCheck: { status: 'True' }, remediating: false, deleting: false },
  ],
  others: [],
};

/** Answers GET …/healthcheck with `view`, records every other request and refuses it. */
function api(view: PoolHealthCheckView | null) {
  const sent: { url: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', (input: string, init?: { method?: string; body?: string }) => {
    if ((init?.method ?? 'GET') === 'GET') {
      return Promise.resolve(
        new Response(JSON.stringify({ healthCheck: view }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
      );
    }
    sent.push({ url: input, body: JSON.parse(init?.body ?? 'null') as unknown });
    return Promise.resolve(
      new Response(JSON.stringify({ code: 'Invalid', message: 'stop here', details: [] }), {
        status: 422,
      }),
    );
  });
  return sent;
}

async function open(view: PoolHealthCheckView | null, locale: 'en' | 'zh-CN' = 'en') {
  const sent = api(view);
  renderInApp(
    <HealthCheckDialog
      namespace="cpaas-system"
      cluster="demo"
      pool={worker()}
      context={demoContext()}
      onClose={vi.fn()}
    />,
    { locale },
  );
  const dialog = await screen.findByRole('dialog');
  return { dialog, sent };
}

describe('HealthCheckDialog (O-MHC-CREATE / O-MHC-EDIT / O-MHC-DELETE)', () => {
  it('no health check: says so; Preview sends O-MHC-CREATE with Ready False/Unknown 300 s and upstream’s start-up timeout', async () => {
    const { dialog, sent } = await open(null);
    expect(dialog.textContent).toContain('No health check selects the machines of this pool');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview plan' }));
    await waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]?.url).toContain('/nodepools/demo-md-0/healthcheck?dryRun=true');
    expect(sent[0]?.body).toEqual({
      operation: 'create',
      unhealthyNodeConditions: [
        { type: 'Ready', status: 'False', timeoutSeconds: 300 },
        { type: 'Ready', status: 'Unknown', timeoutSeconds: 300 },
      ],
      nodeStartupTimeoutSeconds: 600,
    });
  });

  it('R-MHC-3 and R-MHC-1 as typed: a start-up timeout of 10 s and no condition left: the rules at the fields, Preview off', async () => {
    const { dialog } = await open(null);
    const startup = within(dialog).getByRole<HTMLInputElement>('spinbutton', {
      name: /^Node start-up timeout/,
    });
    fireEvent.change(startup, { target: { value: '10' } });
    expect(dialog.textContent).toContain('Cluster API requires at least 30 seconds');
    fireEvent.change(startup, { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove condition 2' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove condition 1' }));
    expect(dialog.textContent).toContain('Give at least one unhealthy node condition');
    expect(
      within(dialog).getByRole('button', { name: 'Preview plan' }).hasAttribute('disabled'),
    ).toBe(true);
  });

  it('an existing health check: its report (counts, held back, each target), its values in the form; Preview sends O-MHC-EDIT; Remove sends O-MHC-DELETE', async () => {
    const { dialog, sent } = await open(HELD);
    expect(within(dialog).getByRole('status').textContent).toBe(
      '2 of 3 healthy · remediations allowed: 0',
    );
    expect(dialog.textContent).toContain('Remediation held back: Remediation is not allowed');
    expect(dialog.textContent).toContain(
      'Unhealthy: Health check failed: Condition Ready on Node is reporting status Unknown for more than 5m0s',
    );
    const max = within(dialog).getByRole<HTMLInputElement>('textbox', {
      name: /^Most unhealthy machines/,
    });
    expect(max.value).toBe('0');
    fireEvent.change(max, { target: { value: '40%' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview plan' }));
    await waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]?.body).toMatchObject({
      operation: 'edit',
      resourceVersion: '12',
      maxUnhealthy: '40%',
      unhealthyNodeConditions: [{ type: 'Ready', status: 'Unknown', timeoutSeconds: 300 }],
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove the health check' }));
    await waitFor(() => {
      expect(sent).toHaveLength(2);
    });
    expect(sent[1]?.body).toEqual({ operation: 'delete', resourceVersion: '12' });
  });

  it('in Chinese', async () => {
    const { dialog } = await open(HELD, 'zh-CN');
    expect(within(dialog).getByRole('status').textContent).toBe('3 台中 2 台健康 · 允许修复：0');
    expect(dialog.textContent).toContain('不健康节点条件');
  });
});

describe('the card’s Health check action', () => {
  it('opens the dialog; for a viewer it is inert and says which access review refused it', () => {
    const onAction = vi.fn();
    renderInApp(
      <MemoryRouter>
        <WorkerPoolCard
          pool={worker()}
          permissions={demoContext('viewer').permissions}
          gatedReason={undefined}
          onAction={onAction}
        />
      </MemoryRouter>,
    );
    const button = within(screen.getByRole('article')).getByRole('button', {
      name: 'Health check',
    });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    const describedBy = button.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toMatch(/access review refused/);
    fireEvent.click(button);
    expect(onAction).not.toHaveBeenCalled();
    cleanup();
    const op = vi.fn();
    renderInApp(
      <MemoryRouter>
        <WorkerPoolCard
          pool={worker()}
          permissions={demoContext('operator').permissions}
          gatedReason={undefined}
          onAction={op}
        />
      </MemoryRouter>,
    );
    fireEvent.click(
      within(screen.getByRole('article')).getByRole('button', { name: 'Health check' }),
    );
    expect(op).toHaveBeenCalledWith('healthCheck', expect.objectContaining({ id: 'demo-md-0' }));
  });
});
