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
      ...test,
    },
  });
}
