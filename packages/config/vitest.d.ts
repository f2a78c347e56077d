import type { UserConfig, ViteUserConfig } from 'vitest/config';

export function packageTestConfig(test?: ViteUserConfig['test']): UserConfig;
