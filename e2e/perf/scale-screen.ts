import type { Browser } from '@playwright/test';
import type { BenchRow } from '../../bench/results';
import { startStack } from '../support/stack';

/**
 * `pnpm bench` part `screen`, its second half (issue 28, "click to screen"): from Apply of a
 * scale-up to the new machine's row on the page. The whole product, as `pnpm start` runs it: the
 * simulator with the demo seed and its controllers (the MachineDeployment's and MachineSet's
 * create the machine, as Cluster API's do), the BFF serving the built SPA, and Chromium on the
 * Node Pools tab. Each round scales prod-east-data up by one from its card's Scale dialog
 * (extending its IP pool inline, as an operator must: its entries are all held), previews the
 * plan, and then, in the page, clicks Scale and notes when the dialog's "New machines" table has
 * its first row (a MutationObserver, the page's own clock). The latency is the BFF's write, the
 * controllers', the watch, the stream and the render together.
 */

const NS = 'cpaas-system';
const CLUSTER = 'prod-east';
const POOL = 'prod-east-data';

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN);

export async function scaleToScreen(
  browser: Browser,
  rounds: number,
  log: (s: string) => void,
): Promise<BenchRow[]> {
  // The SPA `pnpm bench` built for this run (STATIC_DIR), as the first half's BFF serves it: a
  // clean checkout has no apps/web/dist while the unit tests run (CI's run of the reduced bench
  // found a page of 404s here).
  const stack = await startStack({
    name: 'bench-screen',
    timeScale: 30,
    ...(process.env.STATIC_DIR ? { staticDir: process.env.STATIC_DIR } : {}),
  });
  try {
    const context = await browser.newContext({
      baseURL: stack.url,
      viewport: { width: 1440, height: 900 },
      locale: 'en-US',
    });
    const page = await context.newPage();
    // Signed in with the operator's token, as the sign-in page does (the session's CSRF token).
    const session = await page.request.get('/api/v1/session');
    const { csrfToken } = (await session.json()) as { csrfToken: string };
    const signIn = await page.request.post('/api/v1/session', {
      data: { token: stack.tokens.operator },
      headers: { 'x-csrf-token': csrfToken, origin: stack.url },
    });
    if (!signIn.ok()) throw new Error(`sign-in: ${String(signIn.status())} ${await signIn.text()}`);
    // What the page met on its way, for the message if the stream never says Live.
    const trail: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning')
        trail.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) trail.push(`${String(r.status())} ${r.request().method()} ${r.url()}`);
    });
    page.on('requestfailed', (r) =>
      trail.push(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText ?? ''}`),
    );
    await page.goto(`/clusters/${NS}/${CLUSTER}/node-pools`);
    const freshness = page.getByRole('status', { name: 'Data freshness' });
    try {
      await freshness.getByText('Live', { exact: true }).waitFor({ timeout: 60_000 });
    } catch (e) {
      const shot = `/tmp/bench-scale-screen-${String(process.pid)}.png`;
      await page.screenshot({ path: shot }).catch(() => undefined);
      const says = await freshness
        .innerText({ timeout: 1000 })
        .catch(() => '(no freshness indicator)');
      throw new Error(
        `the Node Pools tab's stream never said Live in 60 s: it says "${says}" at ${page.url()} (screenshot ${shot}); the page met:\n${trail.slice(-30).join('\n') || '(nothing)'}`,
        { cause: e },
      );
    }
    const card = page.getByRole('article', { name: POOL, exact: true });
    // What the BFF logged as an error (behind a 500), for the message of a round that failed.
    const serverErrors = () => {
      const { count, last } = stack.serverErrors();
      return count === 0 ? '' : `\nthe BFF logged ${String(count)} error(s):\n${last.join('\n')}`;
    };
    const latencies: number[] = [];
    for (let round = 0; round < rounds; round++) {
      await card.getByRole('button', { name: 'Scale', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Scale ${POOL}` });
      await dialog.getByRole('button', { name: 'One replica more' }).click();
      await dialog.getByRole('button', { name: /^Extend IP pool by 1 entry$/ }).click();
      await dialog.getByRole('button', { name: 'Preview plan' }).click();
      await dialog
        .getByRole('region', { name: 'Plan' })
        .waitFor()
        .catch(async (e: unknown) => {
          const says = await dialog.innerText({ timeout: 1000 }).catch(() => '(no dialog)');
          throw new Error(
            `scale-up ${String(round + 1)}: no plan; the dialog says:\n${says.slice(0, 2000)}\n${trail.slice(-10).join('\n')}${serverErrors()}`,
            { cause: e },
          );
        });
      const apply = dialog.getByRole('button', { name: 'Scale', exact: true });
      await apply.waitFor();
      const handle = await apply.elementHandle();
      const ms = await page.evaluate(
        (button) =>
          new Promise<number>((resolve) => {
            // No named functions in here: tsx would wrap them in a helper the page lacks.
            const start = performance.now();
            const observer = new MutationObserver(() => {
              if (document.querySelector('table[aria-label="New machines"] tbody tr') === null)
                return;
              observer.disconnect();
              resolve(performance.now() - start);
            });
            observer.observe(document.body, { subtree: true, childList: true });
            // A machine that never comes is no figure: counted as missing below.
            setTimeout(() => {
              observer.disconnect();
              resolve(Number.NaN);
            }, 20_000);
            (button as HTMLButtonElement | null)?.click();
          }),
        handle,
      );
      if (Number.isFinite(ms)) latencies.push(ms);
      else {
        // What the dialog says instead, so that a missing machine is told from a refused write.
        const says = await dialog.innerText({ timeout: 1000 }).catch(() => '(no dialog)');
        log(
          `scale-up ${String(round + 1)}: the dialog says:\n${says.slice(0, 2000)}\n${trail.slice(-10).join('\n')}${serverErrors()}`,
        );
        await page
          .screenshot({
            path: `/tmp/bench-scale-screen-${String(process.pid)}-${String(round + 1)}.png`,
          })
          .catch(() => undefined);
      }
      // Closed as a user would once the row is there (the dialog follows the machine meanwhile).
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      log(
        `scale-up ${String(round + 1)}/${String(rounds)}: ${Number.isFinite(ms) ? `${String(Math.round(ms))} ms` : 'no new machine on the page within 20 s'}`,
      );
    }
    await context.close();
    const sorted = latencies.map((v) => Math.round(v)).sort((a, b) => a - b);
    return [
      {
        figure: `Apply of a scale-up → the new machine's row on the page, p50 (${String(rounds)} scale-ups)`,
        value: percentile(sorted, 50),
        unit: 'ms',
      },
      {
        figure: `Apply of a scale-up → the new machine's row on the page, slowest of ${String(rounds)}`,
        value: sorted.at(-1) ?? Number.NaN,
        unit: 'ms',
      },
      {
        figure: 'scale-ups whose new machine reached the page',
        value: latencies.length / rounds,
        unit: 'ratio',
        target: { value: 1, better: 'higher' },
        always: true,
      },
    ];
  } finally {
    await stack.stop();
  }
}
