import { packageConfig } from './eslint.js';

export default packageConfig(import.meta.dirname);
