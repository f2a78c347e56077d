import { packageConfig } from '@dcs/config/eslint';

export default packageConfig(import.meta.dirname);
