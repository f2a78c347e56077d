import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Prints the initial JavaScript (the entry chunk and every chunk it imports statically, i.e.
 * what the browser must load before the first screen) gzipped, and fails the build above the
 * budget (issue 14: 200 KB). Lazy routes, dialogs and language packs other than English are not
 * counted: they load on demand.
 */
export function bundleBudget(limitKB: number): Plugin {
  return {
    name: 'dcs-bundle-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, { code: string; imports: string[] }>();
      let entry: string | undefined;
      for (const [file, out] of Object.entries(bundle)) {
        if (out.type !== 'chunk') continue;
        chunks.set(file, { code: out.code, imports: out.imports });
        if (out.isEntry) entry = file;
      }
      if (!entry) return;
      const seen = new Set<string>();
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const dep of chunks.get(file)?.imports ?? []) visit(dep);
      };
      visit(entry);
      let total = 0;
      const rows: string[] = [];
      for (const file of seen) {
        const size = gzipSync(chunks.get(file)?.code ?? '', { level: 9 }).length;
        total += size;
        rows.push(`  ${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
      }
      const kb = total / 1024;
      this.info(
        `initial JavaScript: ${kb.toFixed(1)} KB gzipped (budget ${limitKB} KB)\n${rows.join('\n')}`,
      );
      console.log(
        `\nInitial JavaScript: ${kb.toFixed(1)} KB gzipped (budget ${limitKB} KB)\n${rows.join('\n')}\n`,
      );
      if (kb > limitKB)
        this.error(
          `initial JavaScript ${kb.toFixed(1)} KB gzipped exceeds the budget of ${limitKB} KB`,
        );
    },
  };
}
