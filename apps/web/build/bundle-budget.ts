import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Where the report is written, in the build's output (not served: the BFF skips dot folders). */
export const REPORT_FILE = '.vite/bundle-budget.json';

export interface BundleReport {
  firstLoadKB: number;
  routeKB: number;
  /** The first load's chunks: the entry and every chunk it imports statically. */
  firstLoad: { files: string[]; gzipKB: number };
  /**
   * One per route module (each `import()` of the router), largest first: its chunk (`files`,
   * `gzipKB`) and what a first visit to it downloads beyond the first load (`visitFiles`,
   * `visitKB`).
   */
  routes: {
    route: string;
    module: string;
    files: string[];
    gzipKB: number;
    visitFiles: string[];
    visitKB: number;
  }[];
}

/** A chunk of the output as the bundler describes it (the fields the budget needs). */
export interface OutputChunk {
  file: string;
  imports: string[];
  isEntry: boolean;
  isDynamicEntry: boolean;
  facadeModuleId: string | null;
}

type Chunks = Map<string, { imports: string[] }>;

/** `file` and every chunk it imports statically, transitively, into `into`. */
function staticClosure(chunks: Chunks, file: string, into = new Set<string>()): Set<string> {
  if (into.has(file)) return into;
  into.add(file);
  for (const dep of chunks.get(file)?.imports ?? []) staticClosure(chunks, dep, into);
  return into;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/**
 * The first load and each route's chunk and first visit (definitions: {@link bundleBudget}),
 * from the output's chunks, the route modules' ids and each file's gzipped size in bytes.
 */
export function budgetReport({
  chunks: output,
  routeModules,
  gzipBytes,
  root,
  firstLoadKB,
  routeKB,
}: {
  chunks: readonly OutputChunk[];
  routeModules: Iterable<string>;
  gzipBytes: (file: string) => number;
  root: string;
  firstLoadKB: number;
  routeKB: number;
}): BundleReport {
  const chunks: Chunks = new Map(output.map((c) => [c.file, { imports: c.imports }]));
  const byModule = new Map<string, string>();
  for (const c of output)
    if (c.isDynamicEntry && c.facadeModuleId) byModule.set(c.facadeModuleId, c.file);
  const entry = output.find((c) => c.isEntry)?.file;
  if (!entry) throw new Error('bundle budget: the output has no entry chunk');
  const sum = (files: Iterable<string>) => [...files].reduce((n, f) => n + gzipBytes(f), 0);

  const first = staticClosure(chunks, entry);
  // Which lazily loaded parts (every dynamic entry: routes, dialogs, packs) need each chunk.
  const owners = new Map<string, Set<string>>();
  for (const dynamic of byModule.values())
    for (const f of staticClosure(chunks, dynamic)) {
      if (first.has(f)) continue;
      const set = owners.get(f) ?? new Set<string>();
      set.add(dynamic);
      owners.set(f, set);
    }
  const routes: BundleReport['routes'] = [];
  for (const id of new Set(routeModules)) {
    const file = byModule.get(id);
    if (!file) throw new Error(`bundle budget: no chunk of its own for the route ${id}`);
    const visitFiles = [...staticClosure(chunks, file)].filter((f) => !first.has(f));
    const files = visitFiles.filter(
      (f) => f === file || (owners.get(f)?.size === 1 && owners.get(f)?.has(file)),
    );
    routes.push({
      route: basename(id, extname(id)),
      module: relative(root, id).split('\\').join('/'),
      files,
      gzipKB: kb(sum(files)),
      visitFiles,
      visitKB: kb(sum(visitFiles)),
    });
  }
  routes.sort((a, b) => b.gzipKB - a.gzipKB || a.route.localeCompare(b.route));
  return { firstLoadKB, routeKB, firstLoad: { files: [...first], gzipKB: kb(sum(first)) }, routes };
}

/** What is over budget, one sentence each; empty when everything fits. */
export function overBudget(report: BundleReport): string[] {
  const { firstLoad, firstLoadKB, routeKB } = report;
  return [
    ...(firstLoad.gzipKB > firstLoadKB
      ? [
          `initial JavaScript ${firstLoad.gzipKB.toFixed(1)} KB gzipped exceeds the budget of ${String(firstLoadKB)} KB`,
        ]
      : []),
    ...report.routes
      .filter((r) => r.gzipKB > routeKB)
      .map(
        (r) =>
          `the route chunk of ${r.route} is ${r.gzipKB.toFixed(1)} KB gzipped, over the budget of ${String(routeKB)} KB`,
      ),
  ];
}

/**
 * Prints what the first screen costs and what each route costs on top of it, gzipped at level 9,
 * and fails the build above either budget (issue 14: 200 KB; issue 28: 180 KB, 60 KB a route).
 *
 * - First load: the entry chunk and every chunk it imports statically, i.e. what the browser must
 *   load before the first screen (index.html names each: a script or a modulepreload).
 * - A route chunk: the chunk of a route module (each `import()` in `router`) and every chunk
 *   that it alone pulls in — imported statically, transitively, by this route and by no other
 *   lazily loaded part (another route, a dialog, a language pack, the menus) nor by the first load.
 *   That is the code this route adds to the app; each must stay under `routeKB`.
 * - A route's first visit (reported, no budget): its chunk and every chunk it imports statically,
 *   transitively, less the first load's, shared or not: what opening it first downloads. What the
 *   route itself loads on demand (a dialog, a language pack) is in neither.
 *
 * Writes both as `.vite/bundle-budget.json` in the output, which `pnpm bench` measures as the BFF
 * serves it (apps/bff/bench/transfer.ts).
 */
export function bundleBudget({
  firstLoadKB,
  routeKB,
  router,
}: {
  firstLoadKB: number;
  routeKB: number;
  /** The module whose dynamic imports are the routes, relative to the project root. */
  router: string;
}): Plugin {
  let root = process.cwd();
  return {
    name: 'dcs-bundle-budget',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    // Once written: the sizes are of the files as they are on disk (and served), every later
    // rewrite of a chunk and its source-map comment included.
    writeBundle(options, bundle) {
      const outDir = options.dir ?? resolve(root, 'dist');
      const chunks: OutputChunk[] = [];
      for (const [file, out] of Object.entries(bundle))
        if (out.type === 'chunk')
          chunks.push({
            file,
            imports: out.imports,
            isEntry: out.isEntry,
            isDynamicEntry: out.isDynamicEntry,
            facadeModuleId: out.facadeModuleId,
          });
      const routeModules = this.getModuleInfo(resolve(root, router))?.dynamicallyImportedIds ?? [];
      if (routeModules.length === 0)
        this.error(`bundle budget: ${router} has no dynamic import (no route to measure)`);
      const sizes = new Map<string, number>();
      const gzipBytes = (file: string) => {
        let size = sizes.get(file);
        if (size === undefined) {
          size = gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length;
          sizes.set(file, size);
        }
        return size;
      };
      let report: BundleReport;
      try {
        report = budgetReport({ chunks, routeModules, gzipBytes, root, firstLoadKB, routeKB });
      } catch (e) {
        this.error(e instanceof Error ? e.message : String(e));
      }
      const reportPath = join(outDir, REPORT_FILE);
      mkdirSync(dirname(reportPath), { recursive: true });
      writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`);

      const line = (sizeKB: number, name: string) =>
        `  ${sizeKB.toFixed(1).padStart(7)} KB  ${name}`;
      console.log(
        [
          '',
          `Initial JavaScript: ${report.firstLoad.gzipKB.toFixed(1)} KB gzipped (budget ${String(firstLoadKB)} KB)`,
          ...report.firstLoad.files.map((f) => line(gzipBytes(f) / 1024, f)),
          `Route chunks, gzipped (budget ${String(routeKB)} KB each), and a first visit of each beyond the first load:`,
          ...report.routes.map((r) =>
            line(
              r.gzipKB,
              `${r.route} (${String(r.files.length)} files; first visit ${r.visitKB.toFixed(1)} KB in ${String(r.visitFiles.length)})`,
            ),
          ),
          '',
        ].join('\n'),
      );
      const over = overBudget(report);
      if (over.length > 0) this.error(over.join('; '));
    },
  };
}
