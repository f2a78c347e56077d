import { packageTestConfig } from './vitest.js';

export default packageTestConfig({ include: ['test/**/*.test.ts'], testTimeout: 30_000 });
