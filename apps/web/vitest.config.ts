import { packageTestConfig } from '@dcs/config/vitest';

// Component tests render whole pages in happy-dom; on a busy 2-core machine one page's first
// render alone has taken over 5 s (Vitest's default), so the budget is for the slowest honest run.
export default packageTestConfig({ testTimeout: 30_000 });
