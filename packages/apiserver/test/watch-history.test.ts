/* eslint-disable @typescript-eslint/no-unsafe-member-access -- responses are arbitrary JSON from the wire */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, readWatch, startTestServer, type TestServer } from './support/server';

/**
 * Issue 25, item 13: the watch history of a kind kept its last 10,000 events, each a whole
 * version of an object, however old: the simulator's memory grew with every pool created and
 * deleted until every kind's ring was full. kube-apiserver's watch cache keeps the events of its
 * last 75 s (eventFreshDuration), at least 100; so does this server now (`watchHistoryFreshMs`),
 * and a watch from a resourceVersion older than what is kept gets 410 as before. The clock is a
 * fake one moved by the test.
 */

let now = Date.parse('2026-01-01T10:00:00Z');
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ now: () => now });
});
afterAll(async () => {
  await t.server.close();
});

const CMS = '/api/v1/namespaces/default/configmaps';
const watchFrom = (rv: string) =>
  readWatch(`${t.server.url}${CMS}?watch=1&resourceVersion=${rv}`, ADMIN, (ev) => ev.length > 0);
async function churn(name: string, n: number): Promise<string> {
  const first = await t.api('POST', CMS, {
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { n: '0' } },
  });
  for (let i = 1; i < n; i++) {
    await t.api('PATCH', `${CMS}/${name}`, {
      body: { data: { n: String(i) } },
      contentType: 'application/merge-patch+json',
    });
  }
  return first.body.metadata.resourceVersion as string;
}

describe('watch history freshness (kube-apiserver watch cache: 75 s, at least 100 events)', () => {
  it('resumes from a resourceVersion of the last 75 s, whatever the count', async () => {
    const rv = await churn('fresh', 150);
    now += 74_000;
    await churn('fresh-2', 1);
    const { status, events } = await watchFrom(rv);
    expect(status).toBe(200);
    expect(events[0].type).toBe('MODIFIED');
    expect(events[0].object.metadata.name).toBe('fresh');
  });

  it('answers 410 for one older than 75 s once more than 100 newer events are kept', async () => {
    const rv = await churn('stale', 150);
    now += 76_000;
    await churn('stale-2', 1);
    const { events } = await watchFrom(rv);
    expect(events[0].type).toBe('ERROR');
    expect(events[0].object).toMatchObject({ reason: 'Expired', code: 410 });
  });

  it('keeps the latest 100 events of a kind however old they are', async () => {
    const rv = await churn('quiet', 60);
    now += 3_600_000;
    await churn('quiet-2', 1);
    const { events } = await watchFrom(rv);
    expect(events[0].type).toBe('MODIFIED');
    expect(events[0].object.metadata.name).toBe('quiet');
  });
});
