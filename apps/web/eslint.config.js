import { packageConfig } from '@dcs/config/eslint';

export default [
  ...packageConfig(import.meta.dirname),
  // Build tooling runs in Node, not in the browser: it may use Node's modules.
  {
    files: ['vite.config.ts', 'build/**'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-globals': 'off' },
  },
];
