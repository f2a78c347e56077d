import { defineConfig } from 'vitest/config';

/**
 * Vitest settings shared by every package; a package's `vitest.config.ts` may extend them.
 * @param {import('vitest/config').ViteUserConfig['test']} [test]
 */
export function packageTestConfig(test = {}) {
  return defineConfig({
    test: {
      include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
      environment: 'node',
      // Budgets for the slowest honest run on a busy 2-core machine, not performance limits (those
      // live in the benchmarks): one happy-dom page's first render or a server start has taken
      // well over Vitest's default 5 s there.
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // CI's machines are shared and noisy: a test gets one retry there, and .ci/test.mjs names
      // every test that needed it, so a flaky test is seen and fixed rather than hidden.
      retry: process.env.CI ? 1 : 0,
      ...test,
    },
  });
}
