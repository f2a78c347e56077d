import { describe, expect, it } from 'vitest';
import { budgetReport, overBudget, type OutputChunk } from './bundle-budget';

const chunk = (
  file: string,
  imports: string[],
  more: Partial<Omit<OutputChunk, 'file' | 'imports'>> = {},
): OutputChunk => ({
  file,
  imports,
  isEntry: false,
  isDynamicEntry: false,
  facadeModuleId: null,
  ...more,
});
const route = (file: string, id: string, imports: string[]) =>
  chunk(file, imports, { isDynamicEntry: true, facadeModuleId: id });

/**
 * An app like the console's: the entry and its vendor chunk; two routes sharing a form library;
 * one route with a chunk of its own; a dialog (lazy, not a route) sharing a chunk with a route.
 */
const CHUNKS = [
  chunk('index.js', ['vendor.js'], { isEntry: true }),
  chunk('vendor.js', []),
  route('AddPoolRoute.js', '/app/src/app/routes/AddPoolRoute.tsx', [
    'vendor.js',
    'forms.js',
    'zod.js',
  ]),
  route('IpPoolsRoute.js', '/app/src/app/routes/IpPoolsRoute.tsx', ['forms.js']),
  chunk('forms.js', ['vendor.js']),
  chunk('zod.js', []),
  route('NodesRoute.js', '/app/src/app/routes/NodesRoute.tsx', ['table.js']),
  chunk('table.js', []),
  route('PoolActionDialog.js', '/app/src/app/routes/PoolActionDialog.tsx', ['forms.js']),
];
const SIZES: Record<string, number> = {
  'index.js': 100 * 1024,
  'vendor.js': 50 * 1024,
  'AddPoolRoute.js': 20 * 1024,
  'IpPoolsRoute.js': 4 * 1024,
  'forms.js': 30 * 1024,
  'zod.js': 25 * 1024,
  'NodesRoute.js': 2 * 1024,
  'table.js': 9 * 1024,
  'PoolActionDialog.js': 8 * 1024,
};
const report = (firstLoadKB = 180, routeKB = 60) =>
  budgetReport({
    chunks: CHUNKS,
    routeModules: [
      '/app/src/app/routes/AddPoolRoute.tsx',
      '/app/src/app/routes/IpPoolsRoute.tsx',
      '/app/src/app/routes/IpPoolsRoute.tsx',
      '/app/src/app/routes/NodesRoute.tsx',
    ],
    gzipBytes: (f) => SIZES[f] ?? Number.NaN,
    root: '/app',
    firstLoadKB,
    routeKB,
  });

describe('the bundle budget (issues 14 and 28)', () => {
  it('counts the entry and what it imports statically as the first load', () => {
    expect(report().firstLoad).toEqual({ files: ['index.js', 'vendor.js'], gzipKB: 150 });
  });

  it("a route chunk is the route's own chunk and what it alone pulls in; a first visit adds what it shares", () => {
    const byRoute = Object.fromEntries(report().routes.map((r) => [r.route, r]));
    // zod is AddPoolRoute's alone; forms is shared (with IpPoolsRoute and a dialog): not its own.
    expect(byRoute.AddPoolRoute).toMatchObject({
      module: 'src/app/routes/AddPoolRoute.tsx',
      files: ['AddPoolRoute.js', 'zod.js'],
      gzipKB: 45,
      visitFiles: ['AddPoolRoute.js', 'forms.js', 'zod.js'],
      visitKB: 75,
    });
    expect(byRoute.IpPoolsRoute).toMatchObject({ files: ['IpPoolsRoute.js'], visitKB: 34 });
    expect(byRoute.NodesRoute).toMatchObject({ files: ['NodesRoute.js', 'table.js'], gzipKB: 11 });
    // One row per route module (a module two routes load is measured once), largest first;
    // a dialog is not a route.
    expect(report().routes.map((r) => r.route)).toEqual([
      'AddPoolRoute',
      'NodesRoute',
      'IpPoolsRoute',
    ]);
  });

  it('names what is over budget, the first load and each route', () => {
    expect(overBudget(report())).toEqual([]);
    expect(overBudget(report(140, 40))).toEqual([
      'initial JavaScript 150.0 KB gzipped exceeds the budget of 140 KB',
      'the route chunk of AddPoolRoute is 45.0 KB gzipped, over the budget of 40 KB',
    ]);
  });

  it('refuses a route without a chunk of its own and an output without an entry', () => {
    expect(() =>
      budgetReport({
        chunks: CHUNKS,
        routeModules: ['/app/src/app/routes/Missing.tsx'],
        gzipBytes: () => 1,
        root: '/app',
        firstLoadKB: 1,
        routeKB: 1,
      }),
    ).toThrow('no chunk of its own for the route /app/src/app/routes/Missing.tsx');
    expect(() =>
      budgetReport({
        chunks: CHUNKS.slice(1),
        routeModules: [],
        gzipBytes: () => 1,
        root: '/app',
        firstLoadKB: 1,
        routeKB: 1,
      }),
    ).toThrow('no entry chunk');
  });
});
