// @vitest-environment happy-dom
import {
  ANNOTATION_AUTOSCALER_MAX_SIZE,
  ANNOTATION_AUTOSCALER_MIN_SIZE,
  type ClusterAutoscalerView,
  type NodePoolView,
  type ObjectSet,
} from '@dcs/domain';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/routing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoContext } from '../../../test/api';
import { demoClusterViews } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import { WorkerPoolCard } from '../../node-pools/components/WorkerPoolCard';
import { AutoscaleDialog } from './AutoscaleDialog';
import { ScaleDialog } from './ScaleDialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const workerOf = (change?: (o: ObjectSet) => void): NodePoolView => {
  const pool = demoClusterViews(change).pools.find((p) => p.id === 'demo-md-0');
  if (!pool) throw new Error('the demo cluster has no worker pool');
  return pool;
};
const bounded = (min: string, max: string) =>
  workerOf((o) => {
    const md = o.machineDeployments?.[0];
    if (md)
      md.metadata.annotations = {
        [ANNOTATION_AUTOSCALER_MIN_SIZE]: min,
        [ANNOTATION_AUTOSCALER_MAX_SIZE]: max,
      };
  });

const STATUS: ClusterAutoscalerView = {
  status: 'ok',
  secret: 'cpaas-system/demo-kubeconfig',
  configMap: 'kube-system/cluster-autoscaler-status',
  found: true,
  document: {
    format: 'yaml',
    clusterWide: {},
    nodeGroups: [
      {
        name: 'MachineDeployment/cpaas-system/demo-md-0',
        health: { status: 'Healthy', target: 3, minSize: 1, maxSize: 5, ready: 3 },
        scaleUp: { status: 'NoActivity', lastTransitionTime: '2026-01-01T00:30:00.000Z' },
        scaleDown: { status: 'NoCandidates' },
      },
    ],
  },
};

function card(
  pool: NodePoolView,
  role: 'operator' | 'viewer',
  autoscaler?: ClusterAutoscalerView,
  locale: 'en' | 'zh-CN' = 'en',
) {
  const onAction = vi.fn();
  renderInApp(
    <MemoryRouter>
      <WorkerPoolCard
        pool={pool}
        permissions={demoContext(role).permissions}
        gatedReason={undefined}
        onAction={onAction}
        autoscaler={autoscaler}
      />
    </MemoryRouter>,
    { locale },
  );
  return { article: screen.getByRole('article'), onAction };
}
const fact = (article: HTMLElement, id: string) =>
  article.querySelector(`[data-fact="${id}"]`)?.textContent;

const dialogOf = (pool: NodePoolView, onClose = vi.fn()) => {
  renderInApp(
    <AutoscaleDialog
      namespace="cpaas-system"
      cluster="demo"
      pool={pool}
      context={demoContext()}
      onClose={onClose}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: `Autoscaling of ${pool.name}` });
  const min = within(dialog).getByRole<HTMLInputElement>('spinbutton', {
    name: /^Minimum replicas/,
  });
  const max = within(dialog).getByRole<HTMLInputElement>('spinbutton', {
    name: /^Maximum replicas/,
  });
  const preview = within(dialog).getByRole('button', { name: 'Preview plan' });
  return { dialog, min, max, preview };
};
const type = (input: HTMLInputElement, value: string) => {
  fireEvent.change(input, { target: { value } });
};
/** Captures what the dialog sends, answering with a refusal so the flow stops there. */
function capture() {
  const sent: { url: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', (input: string, init?: { body?: string }) => {
    sent.push({ url: input, body: JSON.parse(init?.body ?? 'null') as unknown });
    return Promise.resolve(
      new Response(JSON.stringify({ code: 'Invalid', message: 'stop here', details: [] }), {
        status: 422,
      }),
    );
  });
  return sent;
}

describe('the card’s autoscaling (issue 26 item 2)', () => {
  it('no bounds: Autoscaling says Off, and no autoscaler status is shown', () => {
    const { article } = card(workerOf(), 'operator');
    expect(fact(article, 'autoscaling')).toBe('Off');
    expect(fact(article, 'autoscaler-status')).toBeUndefined();
  });

  it('bounds: shown, with what the autoscaler says of the node group (health, target, min/max, last scale-up)', () => {
    const { article } = card(bounded('1', '5'), 'operator', STATUS);
    expect(fact(article, 'autoscaling')).toBe('1–5 replicas');
    const status = fact(article, 'autoscaler-status') ?? '';
    expect(status).toContain('Healthy · target 3, 3 ready (min 1, max 5)');
    expect(status).toMatch(/Last scale-up: NoActivity \(.+\)/);
    expect(status).toContain('Last scale-down: NoCandidates');
  });

  it('the autoscaler’s status, when it cannot be shown, says why (no ConfigMap, not listed, no right)', () => {
    const pool = bounded('1', '5');
    const { article } = card(pool, 'operator', {
      ...STATUS,
      found: false,
      document: undefined,
    });
    expect(fact(article, 'autoscaler-status')).toBe(
      'No status: no cluster autoscaler writes kube-system/cluster-autoscaler-status',
    );
    cleanup();
    const other = card(pool, 'operator', {
      ...STATUS,
      document: { format: 'text', clusterWide: {}, nodeGroups: [] },
    });
    expect(fact(other.article, 'autoscaler-status')).toBe('Not one of its node groups (yet)');
    cleanup();
    const forbidden = card(pool, 'viewer', {
      status: 'forbidden',
      secret: 'cpaas-system/demo-kubeconfig',
      message: 'you may not read secret cpaas-system/demo-kubeconfig',
    });
    expect(fact(forbidden.article, 'autoscaler-status')).toBe(
      'Not shown: you may not read secret cpaas-system/demo-kubeconfig',
    );
  });

  it('R-AS-2: a pool with one annotation says the autoscaler ignores it, as a problem naming the rule', () => {
    const pool = workerOf((o) => {
      const md = o.machineDeployments?.[0];
      if (md) md.metadata.annotations = { [ANNOTATION_AUTOSCALER_MIN_SIZE]: '2' };
    });
    const { article } = card(pool, 'operator');
    expect(fact(article, 'autoscaling')).toBe('Ignored by the autoscaler (min-size 2, max-size —)');
    expect(article.textContent).toContain('The cluster autoscaler ignores this pool');
  });

  it('the Autoscaling action opens the dialog; for a viewer it is inert and says which access review refused it', () => {
    const op = card(workerOf(), 'operator');
    fireEvent.click(within(op.article).getByRole('button', { name: 'Autoscaling' }));
    expect(op.onAction).toHaveBeenCalledWith(
      'autoscale',
      expect.objectContaining({ id: 'demo-md-0' }),
    );
    cleanup();
    const viewer = card(workerOf(), 'viewer');
    const button = within(viewer.article).getByRole('button', { name: 'Autoscaling' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    const describedBy = button.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toMatch(
      /access review refused patch on machinedeployments/,
    );
    fireEvent.click(button);
    expect(viewer.onAction).not.toHaveBeenCalled();
  });

  it('in Chinese: the bounds and the action', () => {
    const { article } = card(bounded('1', '5'), 'operator', STATUS, 'zh-CN');
    expect(fact(article, 'autoscaling')).toBe('1–5 个副本');
    expect(within(article).getByRole('button', { name: '自动伸缩' })).toBeTruthy();
  });
});

describe('AutoscaleDialog (O-AUTOSCALE / O-AUTOSCALE-REMOVE)', () => {
  it('R-AS-2, R-AS-1, R-AS-3 as typed: only one bound, a negative one, min above max: the rule at the field, Preview off', () => {
    const { min, max, preview, dialog } = dialogOf(workerOf());
    type(min, '1');
    expect(max.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByText(/maxSize is missing/)).toBeTruthy();
    expect(preview.hasAttribute('disabled')).toBe(true);
    type(max, '-2');
    expect(within(dialog).getByText(/maxSize -2 is less than 0.*R-AS-1/)).toBeTruthy();
    type(min, '4');
    type(max, '2');
    expect(within(dialog).getByText(/minSize 4 is more than maxSize 2.*R-AS-3/)).toBeTruthy();
    expect(preview.hasAttribute('disabled')).toBe(true);
  });

  it('valid bounds around the replicas: Preview sends a dry run of the autoscale route with exactly them', async () => {
    const { min, max, preview } = dialogOf(workerOf());
    type(min, '1');
    type(max, '3');
    expect(preview.hasAttribute('disabled')).toBe(false);
    const sent = capture();
    fireEvent.click(preview);
    await waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]?.url).toMatch(
      /\/api\/v1\/clusters\/cpaas-system\/demo\/nodepools\/demo-md-0\/autoscale\?dryRun=true$/,
    );
    expect(sent[0]?.body).toEqual({ resourceVersion: '1', minSize: 1, maxSize: 3 });
  });

  it('R-AS-4: bounds the replicas are outside of: the same change moves them in, or, unticked, the rule refuses', async () => {
    const { min, max, preview, dialog } = dialogOf(workerOf());
    type(min, '1');
    type(max, '2');
    const move = within(dialog).getByRole('checkbox', { name: /Also set replicas from 3 to 2/ });
    expect((move as HTMLInputElement).checked).toBe(true);
    expect(preview.hasAttribute('disabled')).toBe(false);
    fireEvent.click(move);
    expect(within(dialog).getByText(/replicas 3 of demo-md-0 is above maxSize 2/)).toBeTruthy();
    expect(preview.hasAttribute('disabled')).toBe(true);
    fireEvent.click(move);
    const sent = capture();
    fireEvent.click(preview);
    await waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]?.body).toEqual({ resourceVersion: '1', minSize: 1, maxSize: 2, replicas: 2 });
  });

  it('R-AS-5 warns (not blocks) when the IP pool cannot serve max; the bounds already set are the starting values', () => {
    const { min, max, preview, dialog } = dialogOf(bounded('1', '3'));
    expect(min.value).toBe('1');
    expect(max.value).toBe('3');
    // Unchanged: nothing to preview.
    expect(preview.hasAttribute('disabled')).toBe(true);
    type(max, '9');
    expect(
      within(dialog).getByText(/maxSize 9 is more than IP pool demo-worker-pool can serve/),
    ).toBeTruthy();
    expect(max.getAttribute('aria-invalid')).toBe('false');
    expect(preview.hasAttribute('disabled')).toBe(false);
  });

  it('O-AUTOSCALE-REMOVE: "Remove the bounds" previews both annotations removed', async () => {
    const { dialog } = dialogOf(bounded('1', '3'));
    const sent = capture();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove the bounds' }));
    await waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]?.body).toEqual({ resourceVersion: '1', minSize: null, maxSize: null });
  });
});

describe('R-AS-7: the Scale dialog of an autoscaled pool', () => {
  it('says the autoscaler manages it; a count outside the bounds is refused at the field, within them warned', () => {
    const pool = bounded('2', '3');
    renderInApp(
      <ScaleDialog
        namespace="cpaas-system"
        cluster="demo"
        pool={pool}
        context={demoContext()}
        machines={demoClusterViews().machines}
        onClose={vi.fn()}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Scale demo-md-0' });
    expect(
      within(dialog).getByText(/Autoscaled between 2 and 3: outside them a count is refused/),
    ).toBeTruthy();
    const replicas = within(dialog).getByRole<HTMLInputElement>('spinbutton', {
      name: /^Replicas/,
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'One replica fewer' }));
    expect(replicas.value).toBe('2');
    expect(replicas.getAttribute('aria-invalid')).toBe('false');
    expect(within(dialog).getByText(/it may change replicas 2 again/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'One replica fewer' }));
    expect(replicas.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByText(/replicas 1 is below the autoscaler’s minSize 2/)).toBeTruthy();
    expect(
      within(dialog).getByRole('button', { name: 'Preview plan' }).hasAttribute('disabled'),
    ).toBe(true);
  });
});
