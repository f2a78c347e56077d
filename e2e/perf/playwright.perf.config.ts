import { defineConfig } from '@playwright/test';
import base from '../playwright.config';

/** `pnpm --filter @dcs/e2e perf`: the performance budgets of issue 6 (perf.spec.ts). */
export default defineConfig({
  ...base,
  testDir: '.',
  globalSetup: '../support/global-setup.ts',
  testMatch: /perf\.spec\.ts/,
  projects: [{ name: 'perf' }],
  workers: 1,
  retries: 0,
  use: { ...base.use, screenshot: 'off', trace: 'off' },
});
