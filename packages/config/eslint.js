import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { boundaries, workspacePackages } from './boundaries.js';

/**
 * The lint configuration of one workspace package. Each package's `eslint.config.js` calls this
 * with its own directory; the import boundaries come from the shared table, never from the package.
 * @param {string} packageDir
 */
export function packageConfig(packageDir) {
  const { name } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const boundary = boundaries[name];
  if (!boundary) throw new Error(`${name} is missing from @dcs/config/boundaries.js`);

  const forbiddenWorkspace =
    boundary.workspace === '*'
      ? []
      : workspacePackages.filter(
          (p) => p !== name && p !== '@dcs/config' && !boundary.workspace.includes(p),
        );
  const patterns = [
    {
      group: forbiddenWorkspace.flatMap((p) => [p, `${p}/*`]),
      message: `${name} may not import this package (ARCHITECTURE.md, "The parts and their rooms").`,
    },
    {
      group: ['**/packages/*/src/**', '**/apps/*/src/**', '../../packages/**', '../../apps/**'],
      message: 'Import another workspace package by its name, never by a relative path.',
    },
  ];
  const nodeMessage = `${name} does no I/O: Node built-in modules are not allowed here.`;
  // Exact names, not patterns: a pattern "domain" would also match "@dcs/domain".
  const nodePaths = boundary.node
    ? []
    : builtinModules
        .filter((m) => !m.startsWith('_'))
        .map((m) => ({ name: m, message: nodeMessage }));
  if (!boundary.node) patterns.push({ group: ['node:*'], message: nodeMessage });

  return defineConfig(
    {
      ignores: [
        '**/dist/**',
        '**/node_modules/**',
        '**/.sim/**',
        '**/.reports/**',
        '**/test-results/**',
        '**/playwright-report/**',
      ],
    },
    js.configs.recommended,
    tseslint.configs.strictTypeChecked,
    tseslint.configs.stylisticTypeChecked,
    {
      languageOptions: {
        ecmaVersion: 2023,
        globals: boundary.node ? { ...globals.node } : { ...globals.browser },
        parserOptions: { projectService: true, tsconfigRootDir: packageDir },
      },
      rules: {
        '@typescript-eslint/consistent-type-imports': 'error',
        '@typescript-eslint/no-import-type-side-effects': 'error',
        '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
        '@typescript-eslint/no-unused-vars': [
          'error',
          { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
        ],
        'no-restricted-imports': [
          'error',
          { paths: nodePaths, patterns: patterns.filter((p) => p.group.length) },
        ],
        'no-restricted-globals': boundary.node
          ? 'off'
          : ['error', 'process', 'Buffer', 'require', '__dirname', '__filename'],
      },
    },
    // Tests may read fixtures from disk even where the product does no I/O, and may import what
    // the boundary table lists for them (`tests`).
    {
      files: ['**/*.test.ts', '**/*.test.tsx', 'test/**', 'bench/**'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: patterns
              .filter((p) => !p.group.includes('node:*'))
              .map((p) => ({
                ...p,
                group: p.group.filter(
                  (g) => !(boundary.tests ?? []).some((t) => g === t || g === `${t}/*`),
                ),
              }))
              .filter((p) => p.group.length),
          },
        ],
      },
    },
    {
      files: ['**/*.js', '**/*.mjs'],
      extends: [tseslint.configs.disableTypeChecked],
      languageOptions: { globals: { ...globals.node } },
    },
  );
}
