import { describe, expect, it } from 'vitest';
import type { SourceHealth } from './source';
import { upstreamStatus } from './upstream';

const healthy = (resource: string): SourceHealth => ({
  resource,
  hasSynced: true,
  objects: 1,
  restarts: 0,
  relists: 0,
  errors: 0,
  staleRestarts: 0,
  lagMs: 0,
  failingSince: 0,
  lastError: '',
});

const failing = (resource: string, since: number, error: string): SourceHealth => ({
  ...healthy(resource),
  failingSince: since,
  lastError: error,
});

describe('upstreamStatus (issue 10 item 4)', () => {
  it('is connected while every watch is healthy or has failed for less than the threshold', () => {
    expect(upstreamStatus([healthy('a'), healthy('b')], 100_000, 10_000)).toEqual({
      state: 'connected',
    });
    expect(upstreamStatus([failing('a', 95_000, 'ECONNREFUSED')], 100_000, 10_000)).toEqual({
      state: 'connected',
    });
  });

  it('is disconnected since the oldest failure past the threshold, naming it and counting the others', () => {
    const status = upstreamStatus(
      [
        healthy('configmaps'),
        failing('machines', 85_000, 'connect ECONNREFUSED 127.0.0.1:6443'),
        failing('clusters', 80_000, 'self-signed certificate'),
        failing('pools', 99_000, 'too recent to count'),
      ],
      100_000,
      10_000,
    );
    expect(status).toEqual({
      state: 'disconnected',
      since: new Date(80_000).toISOString(),
      reason: 'clusters: self-signed certificate (and 1 more watches)',
    });
  });

  it('counts exactly the threshold as down', () => {
    expect(upstreamStatus([failing('a', 90_000, 'x')], 100_000, 10_000).state).toBe('disconnected');
  });
});
