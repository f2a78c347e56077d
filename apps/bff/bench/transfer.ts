import { existsSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { DEFAULT_STATIC_DIR, registerStatic } from '../src/routes/static';
import {
  benchScale,
  loadAverage,
  meets,
  printSection,
  record,
  type BenchRow,
} from '../../../bench/results';

/**
 * `pnpm --filter @dcs/bff bench:transfer`: what the built app costs over the wire as the BFF
 * serves it (issue 14) — the first load (index.html, its entry script and every modulepreload)
 * in bytes on the wire with brotli, with gzip and uncompressed, and what a returning visitor
 * re-downloads (index.html revalidates to a 304; hashed assets come from the cache for a year) —
 * and each route's chunk (issue 28), as the web build's budget defines and lists them in
 * `.vite/bundle-budget.json` (apps/web/build/bundle-budget.ts), each file measured as served here.
 * Needs `pnpm --filter @dcs/web build` first. In-process (`inject`): the sizes do not depend on the
 * machine, so it is cheap to run anywhere. Writes its section of bench/results.{md,json}.
 */

const dir = process.env.STATIC_DIR ?? DEFAULT_STATIC_DIR;
// DCS_CHECK_ARGS=1: the command line is parsed and checked, nothing runs (README commands test).
if (process.argv.slice(2).some((a) => a !== '--')) {
  console.error(`bench:transfer: takes no arguments, got ${process.argv.slice(2).join(' ')}`);
  process.exit(2);
}
if (process.env.DCS_CHECK_ARGS === '1') {
  writeSync(1, `args ok: ${JSON.stringify({ staticDir: dir })}\n`);
  process.exit(0);
}
const loadAtStart = loadAverage();
if (!existsSync(join(dir, 'index.html'))) {
  console.error(`no built app in ${dir}: run \`pnpm --filter @dcs/web build\` first`);
  process.exit(2);
}
/** What the web build wrote beside the app (apps/web/build/bundle-budget.ts, BundleReport). */
interface BundleReport {
  firstLoadKB: number;
  routeKB: number;
  routes: { route: string; files: string[]; visitFiles: string[] }[];
}
const reportFile = join(dir, '.vite', 'bundle-budget.json');
if (!existsSync(reportFile)) {
  console.error(`no ${reportFile}: build the app with \`pnpm --filter @dcs/web build\``);
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportFile, 'utf8')) as BundleReport;

/** The files a browser fetches before the first screen: index.html names them all. */
function firstLoad(html: string): string[] {
  const urls = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="(\/assets\/[^"]+)"/g)];
  return ['/', ...urls.map((m) => m[1] ?? '')];
}

async function bytes(app: FastifyInstance, url: string, encoding: string) {
  const res = await app.inject({
    url,
    headers: { 'accept-encoding': encoding, accept: url === '/' ? 'text/html' : '*/*' },
  });
  if (res.statusCode !== 200) throw new Error(`${url}: ${String(res.statusCode)}`);
  return { size: res.rawPayload.length, headers: res.headers };
}

const app = Fastify({ logger: false });
await registerStatic(app, dir);
await app.ready();

const files = firstLoad(readFileSync(join(dir, 'index.html'), 'utf8'));
const total = { br: 0, gzip: 0, identity: 0, js: { br: 0, gzip: 0 } };
let immutable = 0;
for (const url of files) {
  const br = await bytes(app, url, 'br, gzip');
  const gz = await bytes(app, url, 'gzip');
  const plain = await bytes(app, url, 'identity');
  total.br += br.size;
  total.gzip += gz.size;
  total.identity += plain.size;
  if (url.endsWith('.js')) {
    total.js.br += br.size;
    total.js.gzip += gz.size;
  }
  if (String(br.headers['cache-control']).includes('immutable')) immutable++;
}
/** Gzip bytes of each asset as served (the precompressed copy, or the file when none is smaller). */
const served = new Map<string, number>();
const gzipOf = async (files: string[]) => {
  let sum = 0;
  for (const file of files) {
    let size = served.get(file);
    if (size === undefined) {
      size = (await bytes(app, `/${file}`, 'gzip')).size;
      served.set(file, size);
    }
    sum += size;
  }
  return sum;
};
const routes = [];
for (const r of report.routes)
  routes.push({ ...r, gzip: await gzipOf(r.files), visit: await gzipOf(r.visitFiles) });
const heaviest = routes.reduce<(typeof routes)[number] | undefined>(
  (a, r) => (a && a.visit >= r.visit ? a : r),
  undefined,
);

const index = await bytes(app, '/', 'br');
const revalidate = await app.inject({
  url: '/',
  headers: {
    accept: 'text/html',
    'accept-encoding': 'br',
    'if-none-match': String(index.headers.etag),
  },
});
const missing = await app.inject({ url: '/assets/missing.js', headers: { accept: '*/*' } });
await app.close();

const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
const rows: BenchRow[] = [
  { figure: 'first load on the wire, brotli', value: kb(total.br), unit: 'KB' },
  { figure: 'first load on the wire, gzip', value: kb(total.gzip), unit: 'KB' },
  { figure: 'first load uncompressed', value: kb(total.identity), unit: 'KB' },
  {
    figure: 'first-load JavaScript, gzip (as served)',
    value: kb(total.js.gzip),
    unit: 'KB',
    target: { value: report.firstLoadKB, better: 'lower' },
    always: true,
  },
  { figure: 'first-load JavaScript, brotli (as served)', value: kb(total.js.br), unit: 'KB' },
  ...routes.map((r): BenchRow => ({
    figure: `route chunk ${r.route}, gzip (as served)`,
    value: kb(r.gzip),
    unit: 'KB',
    target: { value: report.routeKB, better: 'lower' },
    always: true,
  })),
  ...(heaviest
    ? [
        {
          figure: `heaviest first visit of a route beyond the first load (${heaviest.route}), gzip`,
          value: kb(heaviest.visit),
          unit: 'KB',
        },
      ]
    : []),
  {
    figure: 'first-load assets cached immutable for a year',
    value: immutable,
    unit: `of ${String(files.length - 1)}`,
    target: { value: files.length - 1, better: 'higher' },
    always: true,
  },
  {
    figure: 'returning visit: index.html revalidation (304) body',
    value: revalidate.statusCode === 304 ? revalidate.rawPayload.length : Number.NaN,
    unit: 'B',
    target: { value: 0, better: 'lower' },
    always: true,
  },
  {
    figure: 'missing asset answered 404',
    value: missing.statusCode === 404 ? 1 : 0,
    unit: 'yes=1',
    target: { value: 1, better: 'higher' },
    always: true,
  },
];
const section = {
  section: 'Served app: transfer sizes (BFF static hosting)',
  setup:
    `${String(files.length)} files of the first load (index.html and what it names), served by the BFF's static plugin in-process; sizes do not depend on the machine. ` +
    `First-load JavaScript: the entry script and every chunk it imports statically (the modulepreloads). ` +
    `A route chunk: the chunk of one route module (each import() of apps/web/src/app/router.tsx) plus every chunk that route alone pulls in — imported statically, transitively, by it and by no other lazily loaded part nor by the first load; the same list the web build holds to its budget. ` +
    `A first visit: that chunk plus every chunk the route imports statically, shared or not, less the first load's — what opening the route first downloads; what the route loads on demand (a dialog, a language pack) is in neither.`,
  scale: benchScale(),
  loadAverage: { start: loadAtStart, end: loadAverage() },
  measuredAt: new Date().toISOString(),
  rows,
};
record(section);
printSection(section);
process.exitCode = rows.every((r) => meets(r, 'full') !== false) ? 0 : 1;
