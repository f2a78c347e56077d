import { expect, test } from '@playwright/test';
import { freePort, webDist } from '../support/stack';
import { bigCluster, serve } from './fixture-server';

/**
 * Issue 6's performance budgets, measured in headless Chromium and printed:
 * - the Node Pools tab of a cluster with 50 pools / 5,000 machines interactive within 1.5 s;
 * - 200 machine events per second applied with no long task over 100 ms.
 * (The initial JavaScript budget, 200 KB gzipped since issue 14, is enforced by the web build itself.)
 */

const POOLS = 50;
const PER_POOL = 100;
const RATE = 200;

test('performance budgets: 50 pools / 5,000 machines, 200 events/s', async ({ page }) => {
  test.setTimeout(120_000);
  const cluster = bigCluster(POOLS, PER_POOL);
  const port = await freePort();
  const server = await serve(webDist, cluster, port, RATE);
  try {
    await page.addInitScript(() => {
      const w = window as unknown as { __longTasks: [number, number][] };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longTasks.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask', buffered: true });
    });
    const base = `http://127.0.0.1:${port}`;
    // Warm the HTTP cache as a returning user has it; the measured load is the app's own work.
    await page.goto(`${base}/`);
    await expect(page.getByRole('heading', { name: 'Clusters' })).toBeVisible();

    // Measured in the page from the navigation's start (performance.now()), polled every frame.
    // Interactive as Lighthouse's TTI counts it: the screen's content is there (the tab's heading,
    // the first cards and an enabled "Add Worker Node Pool"), and after that no long task runs
    // (checked until every card is rendered and a quiet second has passed).
    await page.goto(`${base}/clusters/cpaas-system/demo/node-pools`);
    const contentReady = await page.waitForFunction(
      () => {
        const add = [...document.querySelectorAll('button')].find(
          (b) => b.textContent === 'Add Worker Node Pool',
        );
        return document.querySelectorAll('article').length >= 6 &&
          add?.getAttribute('aria-disabled') !== 'true'
          ? performance.now()
          : false;
      },
      undefined,
      { polling: 'raf' },
    );
    const readyAt = (await contentReady.jsonValue()) as number;
    const allCards = await page.waitForFunction(
      (n) => (document.querySelectorAll('article').length === n ? performance.now() : false),
      POOLS + 1,
      { polling: 'raf' },
    );
    const allCardsMs = Math.round((await allCards.jsonValue()) as number);
    await page.waitForTimeout(1000);
    const loadTasks = await page.evaluate(() =>
      (window as unknown as { __longTasks: [number, number][] }).__longTasks.splice(0),
    );
    const lastTaskEnd = Math.max(0, ...loadTasks.map(([start, duration]) => start + duration));
    const interactiveMs = Math.round(Math.max(readyAt, lastTaskEnd));
    const loadLong = loadTasks.map(([, d]) => d);

    // The Nodes tab holds all 5,000 machines; the burst updates them live.
    await page.getByRole('tab', { name: 'Nodes' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `of ${POOLS * PER_POOL + 3} machines` }),
    ).toBeVisible();
    await page.evaluate(() =>
      (window as unknown as { __longTasks: unknown[] }).__longTasks.splice(0),
    );
    await fetch(`${base}/perf/burst?seconds=10`);
    await page.waitForTimeout(11_000);
    const burstLong = (
      await page.evaluate(() =>
        (window as unknown as { __longTasks: [number, number][] }).__longTasks.splice(0),
      )
    ).map(([, d]) => d);
    const maxBurst = Math.max(0, ...burstLong);

    const report = [
      `Node Pools tab interactive (50 pools / 5,000 machines): ${interactiveMs} ms (budget 1500 ms); all ${POOLS + 1} cards rendered at ${allCardsMs} ms; long tasks during load: ${loadLong.length} (longest ${Math.round(Math.max(0, ...loadLong))} ms)`,
      `${RATE} machine events/s for 10 s on the Nodes tab: ${burstLong.length} long tasks, longest ${Math.round(maxBurst)} ms (budget 100 ms)`,
    ].join('\n');
    console.log(`\n${report}\n`);
    await test.info().attach('perf.txt', { body: report, contentType: 'text/plain' });
    expect(interactiveMs).toBeLessThanOrEqual(1500);
    expect(maxBurst).toBeLessThanOrEqual(100);
  } finally {
    await server.close();
  }
});
