import { packageTestConfig } from '@dcs/config/vitest';

export default packageTestConfig();
