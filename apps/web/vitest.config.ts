import { packageTestConfig } from '@dcs/config/vitest';

// build/ holds the Vite plugins (bundle budget, precompression); their tests run with the app's.
export default packageTestConfig({
  include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts', 'build/**/*.test.ts'],
  setupFiles: ['src/test/setup.ts'],
});
