import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bundleBudget } from './build/bundle-budget';
import { precompress } from './build/precompress';

/** The BFF that `pnpm dev` talks to through Vite's proxy (its default address). */
const bff = process.env.BFF_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    // Issue 28: the first load and each route's chunk, gzipped; the build fails above either.
    bundleBudget({ firstLoadKB: 180, routeKB: 60, router: 'src/app/router.tsx' }),
    precompress(),
  ],
  build: {
    sourcemap: true,
    rolldownOptions: {
      treeshake: {
        // @dcs/domain is pure (no I/O, no module-level effects: ARCHITECTURE.md), but its
        // package.json does not say so; without this every zod schema it declares would ship
        // in the first chunk.
        moduleSideEffects: [
          { test: /packages[\\/]domain[\\/]src[\\/]/, sideEffects: false },
          { test: /.*/, sideEffects: true },
        ],
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: bff, changeOrigin: false },
    },
  },
});
