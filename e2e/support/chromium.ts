import type { LaunchOptions } from '@playwright/test';

/**
 * Debian's Chromium, as every browser run here launches it: Playwright cannot download its own
 * browser on this machine (README). `CHROMIUM_PATH` points elsewhere.
 */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
