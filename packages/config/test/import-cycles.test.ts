import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No module of the workspace imports itself through others: a circle means a part two modules
 * share sits in one of them (issue 24 broke the five two-file circles where their shared part
 * belongs). Every relative import counts — type-only and dynamic `import()` too, since either
 * ties the two modules' designs together.
 */

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const ROOTS = ['apps/bff/src', 'apps/web/src', 'packages'].map((r) => join(repo, r));

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'dist' && e.name !== 'test') sources(p, out);
    } else if (/\.tsx?$/.test(e.name) && !/\.(test|d)\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The import graph of `files`: each file's relative imports that resolve to one of them. */
function importGraph(files: readonly string[], read: (f: string) => string) {
  const known = new Set(files);
  const target = (from: string, spec: string) => {
    if (!spec.startsWith('.')) return undefined;
    const base = resolve(dirname(from), spec).replace(/\.js$/, '');
    return [
      base,
      `${base}.ts`,
      `${base}.tsx`,
      join(base, 'index.ts'),
      join(base, 'index.tsx'),
    ].find((c) => known.has(c));
  };
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const { importedFiles } = ts.preProcessFile(read(f), true, true);
    const to = importedFiles.map((i) => target(f, i.fileName)).filter((t) => t !== undefined);
    graph.set(f, [...new Set(to)]);
  }
  return graph;
}

/** The strongly connected components of more than one module (Tarjan): the import circles. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('import circles', () => {
  it('finds a two-file circle, a longer one, and one through a type-only or dynamic import', () => {
    const src: Record<string, string> = {
      '/r/a.ts': "import type { B } from './b';",
      '/r/b.ts': "export const x = () => import('./a');",
      '/r/c.ts': "import { d } from './d.js';",
      '/r/d.ts': "import { e } from './e';",
      '/r/e/index.ts': "import { c } from '../c';",
      '/r/f.ts': "import { a } from './a'; import { z } from 'zod';",
    };
    const found = circles(importGraph(Object.keys(src), (f) => src[f] ?? ''));
    expect(found.map((c) => c.length).sort()).toEqual([2, 3]);
  });

  it('there is none in the workspace', () => {
    const files = ROOTS.flatMap((r) => sources(r));
    expect(files.length).toBeGreaterThan(200);
    const found = circles(importGraph(files, (f) => readFileSync(f, 'utf8')));
    expect(found.map((c) => c.map((f) => relative(repo, f)))).toEqual([]);
  });
});
