import { VERSIONS_CATALOG_KEY } from '@dcs/domain';
import { aVersionsCatalog } from '@dcs/domain/testing';
import { describe, expect, it } from 'vitest';
import { FakeCluster } from '../../test/fakes/fake-source';
import { ObjectCache } from '../cache/object-cache';
import { readGlobals } from './globals';

/** The globals read from a catalog ConfigMap whose catalog text is `text`. */
function globalsOf(text: string) {
  const fake = new FakeCluster();
  const cache = new ObjectCache(fake.factory, []);
  cache.start();
  const cm = aVersionsCatalog();
  cm.data = { [VERSIONS_CATALOG_KEY]: text };
  fake.put(cm);
  const start = performance.now();
  const globals = readGlobals(cache, undefined);
  return { globals, ms: performance.now() - start };
}

describe('readGlobals: the versions catalog is untrusted YAML (issue 25, item 7, the same class)', () => {
  it('reads a well-formed catalog', () => {
    const { globals } = globalsOf('- version: v1.31.4\n  vmTemplateName: tpl-1314\n');
    expect(globals.versionsError).toBeUndefined();
    expect(globals.versions.map((v) => v.version)).toEqual(['v1.31.4']);
  });

  it('a catalog of one map with 100,000 keys is refused in linear time (it took minutes)', () => {
    const lines: string[] = [];
    for (let i = 0; i < 100_000; i++) lines.push(`k${i}: v${i}`);
    const { globals, ms } = globalsOf(`${lines.join('\n')}\n`);
    expect(globals.versions).toEqual([]);
    expect(globals.versionsError).toBeDefined();
    expect(ms).toBeLessThan(3_000);
  });

  it('a billion laughs is refused without expanding it', () => {
    const levels = ['- &l0 ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i <= 9; i++)
      levels.push(
        `- &l${i} [${Array(9)
          .fill(`*l${i - 1}`)
          .join(',')}]`,
      );
    const { globals, ms } = globalsOf(`${levels.join('\n')}\n`);
    expect(globals.versions).toEqual([]);
    expect(globals.versionsError).toMatch(/aliases exceeded/);
    expect(ms).toBeLessThan(3_000);
  });
});
