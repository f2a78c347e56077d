import type { Linter } from 'eslint';

export function packageConfig(packageDir: string): Linter.Config[];
