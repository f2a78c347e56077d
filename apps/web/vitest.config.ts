import { packageTestConfig } from '@dcs/config/vitest';

// Component tests render whole pages in happy-dom; on a busy 2-core machine one page's first
// render alone has taken over 5 s (Vitest's default), so the budget is for the slowest honest run.
// build/ holds the Vite plugins (bundle budget, precompression); their tests run with the app's.
export default packageTestConfig({
  include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts', 'build/**/*.test.ts'],
  setupFiles: ['src/test/setup.ts'],
  testTimeout: 30_000,
});
