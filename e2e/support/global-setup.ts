import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, webDist } from './stack';

/** Builds the SPA once for every worker's BFF to serve (E2E_SKIP_BUILD=1 reuses dist/). */
export default function globalSetup(): void {
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync(join(webDist, 'index.html'))) return;
  execFileSync('pnpm', ['--filter', '@dcs/web', 'build'], { cwd: repoRoot, stdio: 'inherit' });
}
