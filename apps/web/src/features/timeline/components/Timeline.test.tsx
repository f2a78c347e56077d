// @vitest-environment happy-dom
import { machinePhaseFact, mergeTimeline } from '@dcs/domain';
import { anAuditRecord, aCoreEvent, aMachine } from '@dcs/domain/testing';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/api';
import { renderInApp } from '../../../test/render';
import type { TimelineView } from '../api/get-timeline';
import { Timeline } from './Timeline';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** An operation other than a scale: told by its id and object. */
const upgrade = () => {
  const r = anAuditRecord({
    id: 'r-up',
    user: 'bob',
    operation: 'O-UPGRADE-K8S',
    action: 'nodepool.upgrade',
    time: '2026-01-01T09:00:00Z',
  });
  delete r.replicas;
  return r;
};

/** What the BFF answers: domain's merge of a console record, an Event and two machines. */
const view = (): TimelineView => ({
  entries: mergeTimeline({
    records: [anAuditRecord({ user: 'alice' }), upgrade()],
    events: [aCoreEvent()],
    machines: [
      { name: 'm5', phase: 'Provisioning', since: '2026-01-01T10:02:10Z' },
      {
        name: 'm6',
        phase: 'Provisioning',
        since: '2026-01-01T10:02:30Z',
        stuck: { code: 'placement-stall', since: '2026-01-01T10:05:00Z' },
      },
    ],
  }),
  facets: { users: ['alice'], operations: ['O-SCALE-UP'] },
  sources: { records: 'ok', events: 'ok', eventsV1: 'ok' },
  retention: { days: 30, maxBytes: 524288 },
});

describe('Timeline (issue 12)', () => {
  it('shows who scaled the pool, the Event and the machines that followed, in English', async () => {
    stubApi({ '/nodepools/demo-md-0/timeline': view() });
    renderInApp(
      <Timeline scope={{ namespace: 'cpaas-system', cluster: 'demo', pool: 'demo-md-0' }} />,
    );
    const table = await screen.findByRole('table', { name: 'Timeline' });
    expect(within(table).getByText('alice scaled demo-md-0 4 → 6 (O-SCALE-UP)')).toBeTruthy();
    expect(within(table).getByText('2 machines Provisioning: m5, m6')).toBeTruthy();
    // The diagnosis as the machine's card names it, at the time it began.
    expect(within(table).getByText('1 machine stuck (Placement stall on DCS): m6')).toBeTruthy();
    expect(
      within(table).getByText('bob ran O-UPGRADE-K8S on MachineDeployment/demo-md-0'),
    ).toBeTruthy();
    expect(within(table).getAllByText('Applied')).toHaveLength(2);
    expect(screen.getByText(/kept for 30 days/)).toBeTruthy();
  });

  it('says a refusal came before any change, and a failure whether it was undone, in both languages (issue 25)', async () => {
    const outcomes = {
      ...view(),
      entries: mergeTimeline({
        records: [
          anAuditRecord({ id: 'r1', result: 'refused', rolledBack: false, status: 403 }),
          anAuditRecord({ id: 'r2', result: 'failed', rolledBack: true, status: 502 }),
          anAuditRecord({ id: 'r3', result: 'failed', rolledBack: false, status: 502 }),
        ],
        events: [],
        machines: [],
      }),
    };
    stubApi({ '/nodepools/demo-md-0/timeline': outcomes });
    renderInApp(
      <Timeline scope={{ namespace: 'cpaas-system', cluster: 'demo', pool: 'demo-md-0' }} />,
    );
    const table = await screen.findByRole('table', { name: 'Timeline' });
    expect(within(table).getByText('Refused before any change')).toBeTruthy();
    expect(within(table).getByText('Failed, completed steps undone')).toBeTruthy();
    expect(within(table).getByText('Failed')).toBeTruthy();
    cleanup();
    stubApi({ '/nodepools/demo-md-0/timeline': outcomes });
    renderInApp(
      <Timeline scope={{ namespace: 'cpaas-system', cluster: 'demo', pool: 'demo-md-0' }} />,
      { locale: 'zh-CN' },
    );
    const zh = await screen.findByRole('table', { name: '时间线' });
    expect(within(zh).getByText('在任何更改之前被拒绝')).toBeTruthy();
    expect(within(zh).getByText('失败，已完成的步骤已撤销')).toBeTruthy();
  });

  it('speaks Chinese, and says when the records cannot be read', async () => {
    stubApi({
      '/clusters/cpaas-system/demo/timeline': {
        ...view(),
        sources: { records: 'forbidden', events: 'ok', eventsV1: 'ok' },
      },
    });
    renderInApp(<Timeline scope={{ namespace: 'cpaas-system', cluster: 'demo' }} />, {
      locale: 'zh-CN',
    });
    const table = await screen.findByRole('table', { name: '时间线' });
    expect(
      within(table).getByText('alice 将 demo-md-0 从 4 扩缩容到 6（O-SCALE-UP）'),
    ).toBeTruthy();
    expect(within(table).getAllByText('已应用')).toHaveLength(2);
    expect(screen.getByText(/无法以您的权限读取控制台的记录/)).toBeTruthy();
  });

  it('a 200-machine scale reads as one line per phase, naming a few machines and counting the rest', async () => {
    const machines = Array.from({ length: 200 }, (_, i) =>
      machinePhaseFact(
        aMachine({
          metadata: {
            name: `w${String(i).padStart(3, '0')}`,
            creationTimestamp: '2026-01-01T10:00:00Z',
          },
          status: { phase: 'Running', lastUpdated: '2026-01-01T10:04:00Z' },
        }),
      ),
    );
    stubApi({
      '/nodepools/demo-md-0/timeline': {
        ...view(),
        entries: mergeTimeline({ records: [], machines }),
      },
    });
    renderInApp(
      <Timeline scope={{ namespace: 'cpaas-system', cluster: 'demo', pool: 'demo-md-0' }} />,
    );
    const table = await screen.findByRole('table', { name: 'Timeline' });
    expect(
      within(table).getByText(/^200 machines Running: w000, .*, w019 \(\+180 more\)$/),
    ).toBeTruthy();
    expect(within(table).getByText(/^200 machines Pending: w000, .* \(\+180 more\)$/)).toBeTruthy();
  });
});
