import { packageTestConfig } from '@dcs/config/vitest';

// Integration tests start the embedded cluster and the app in their hooks: allow for a busy machine.
export default packageTestConfig({ hookTimeout: 60_000, testTimeout: 30_000 });
