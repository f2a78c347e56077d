import { packageTestConfig } from './vitest.js';

export default packageTestConfig({ include: ['test/**/*.test.ts'] });
