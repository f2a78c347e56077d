// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ClusterStream } from '../lib/stream/cluster-stream';
import { StreamContext } from '../lib/stream/use-cluster-stream';
import { renderInApp } from '../test/render';
import { FreshnessIndicator } from './FreshnessIndicator';

afterEach(cleanup);

/** A stream whose server said the management cluster is unreachable since `since`. */
function disconnectedStream(since: string): ClusterStream {
  const listeners = new Map<string, (msg: MessageEvent<string>) => void>();
  const source = {
    readyState: 1,
    onopen: null as (() => void) | null,
    addEventListener: (name: string, l: (msg: MessageEvent<string>) => void) => {
      listeners.set(name, l);
    },
    close: () => undefined,
  };
  const stream = new ClusterStream({
    namespace: 'ns',
    cluster: 'c1',
    onBatch: () => undefined,
    eventSource: () => source as unknown as EventSource,
  });
  stream.start();
  source.onopen?.();
  listeners.get('upstream')?.({
    data: JSON.stringify({
      type: 'upstream',
      status: { state: 'disconnected', since, reason: 'machines: connect ECONNREFUSED' },
    }),
  } as MessageEvent<string>);
  return stream;
}

describe('FreshnessIndicator: the cluster is unreachable (issue 10 item 4)', () => {
  const since = '2026-12-01T10:00:00.000Z';

  it('says since when, in English, with the reason on hover', () => {
    renderInApp(
      <StreamContext.Provider value={disconnectedStream(since)}>
        <FreshnessIndicator />
      </StreamContext.Provider>,
    );
    const status = screen.getByRole('status', { name: 'Data freshness' });
    expect(status.textContent).toMatch(/^Cluster unreachable since .+: showing cached data$/);
    expect(status.querySelector('[title]')?.getAttribute('title')).toBe(
      'machines: connect ECONNREFUSED',
    );
  });

  it('says it in Chinese', () => {
    renderInApp(
      <StreamContext.Provider value={disconnectedStream(since)}>
        <FreshnessIndicator />
      </StreamContext.Provider>,
      { locale: 'zh-CN' },
    );
    expect(screen.getByRole('status').textContent).toMatch(
      /^自 .+ 起无法连接集群：显示的是缓存数据$/,
    );
  });
});
