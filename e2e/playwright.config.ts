import { defineConfig } from '@playwright/test';
import type { StackWorkerFixtures } from './fixtures/stack';
import { chromiumLaunchOptions } from './support/chromium';

/**
 * Each worker starts the whole stack on free ports (fixtures/stack.ts): the embedded management
 * cluster at a high time scale and the BFF in token mode serving the SPA that globalSetup built.
 */
/**
 * Issue 23: the journeys whose requests or reads differ by Cluster API release (at least one per
 * operation), run again against v1.10 (v1beta1 only) and v1.16 (v1beta2 only); the whole suite
 * runs against the default, v1.14. In English and for the operator: the Chinese and viewer
 * variants differ from them in neither the versions spoken nor the objects written.
 */
const RELEASE_JOURNEYS =
  /\/(scale|create-pool|delete-pool|upgrades|rollout|rollout-settings|restart|kcp-config|targeted-delete|ip-entry-edit|disk-migration|conditions|stuck-machine|autoscale|health-check)\.spec\.ts$/;

export default defineConfig<object, Pick<StackWorkerFixtures, 'providerVersion' | 'capiRelease'>>({
  testDir: 'tests',
  globalSetup: './support/global-setup.ts',
  fullyParallel: false,
  workers: process.env.E2E_WORKERS ? Number(process.env.E2E_WORKERS) : 2,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_REPORT ?? '.reports/playwright.json' }],
  ],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'on',
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    { name: 'journeys', testIgnore: /gated\.spec\.ts/ },
    // R-VER-1: a management cluster whose DCS provider is older than 1.0.13.
    { name: 'gated', testMatch: /gated\.spec\.ts/, use: { providerVersion: '1.0.12' } },
    ...(['v1.10', 'v1.16'] as const).map((capiRelease) => ({
      name: `capi-${capiRelease}`,
      testMatch: RELEASE_JOURNEYS,
      grepInvert: /in Chinese|for a viewer/,
      use: { capiRelease },
    })),
  ],
});
