import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { packageConfig } from '../eslint.js';

/**
 * The import boundaries of ARCHITECTURE.md are enforced by lint: a probe file in a throw-away
 * package of each name imports what its room forbids, and ESLint must say so.
 */

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function lintAs(packageName: string, code: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'boundaries-'));
  dirs.push(dir);
  await mkdir(join(dir, 'src'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: packageName, type: 'module' }));
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'ESNext',
        moduleResolution: 'bundler',
        noEmit: true,
        types: [],
      },
      include: ['src'],
    }),
  );
  await writeFile(join(dir, 'src', 'probe.ts'), code);
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: packageConfig(dir),
  });
  const [result] = await eslint.lintFiles(['src/probe.ts']);
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

const probe = (specifier: string) => `import * as x from '${specifier}';\nexport const y = x;\n`;

describe('import boundaries (ARCHITECTURE.md, "The parts and their rooms")', () => {
  it.each([
    ['@dcs/web', '@dcs/bff'],
    ['@dcs/web', '@dcs/informer'],
    ['@dcs/web', 'node:fs'],
    ['@dcs/bff', '@dcs/simulator'],
    ['@dcs/bff', '@dcs/apiserver'],
    ['@dcs/domain', '@dcs/informer'],
    ['@dcs/domain', 'fs'],
    ['@dcs/apiserver', '@dcs/domain'],
    ['@dcs/informer', '@dcs/domain'],
  ])('%s may not import %s', async (pkg, specifier) => {
    expect(await lintAs(pkg, probe(specifier))).toHaveLength(1);
  });

  it.each([
    ['@dcs/web', '@dcs/domain'],
    ['@dcs/bff', '@dcs/domain'],
    ['@dcs/bff', '@dcs/informer'],
    ['@dcs/bff', 'node:http'],
    ['@dcs/simulator', '@dcs/apiserver'],
    ['@dcs/e2e', '@dcs/simulator'],
  ])('%s may import %s', async (pkg, specifier) => {
    expect(await lintAs(pkg, probe(specifier))).toEqual([]);
  });

  it('forbids reaching into another package by a relative path', async () => {
    expect(await lintAs('@dcs/web', probe('../../packages/domain/src/kinds'))).toHaveLength(1);
  });
});
