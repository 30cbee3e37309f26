import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';

/**
 * Two pages, one build: the dashboard (served at /dashboard) and the operator console (served at
 * /operator). The hosted checkout (served at /checkout/{sessionToken}) is built apart, after this,
 * into the same dist/ (vite.checkout.config.ts), so a payer never loads the dashboard's chunks;
 * `npm run dev` still serves all three. Assets are content-hashed under /dashboard/assets/, with
 * brotli and gzip copies beside them (build/precompress.ts), which the server serves. `source` resolves the
 * workspace packages (@caisse/react, @caisse/browser) to their TypeScript sources, so they need
 * no build of their own first.
 */
const API = process.env.CAISSE_BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? '8080'}`;

export default defineConfig({
  base: '/dashboard/',
  plugins: [react(), precompress()],
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      // A busy machine makes the precompression look slow: the timings warning would break the
      // one line `npm start` prints per build step (the newcomer replay reads it).
      checks: { bundlerTimings: false },
      input: {
        dashboard: resolve(import.meta.dirname, 'dashboard.html'),
        operator: resolve(import.meta.dirname, 'operator.html'),
      },
    },
  },
  server: {
    // `npm run dev -w @caisse/dashboard` against the server `npm start` runs: on PORT (default
    // 8080), as the server reads it, or at CAISSE_BASE_URL.
    proxy: Object.fromEntries(['/dashboard/api', '/operator/api', '/gateway', '/auth', '/otp', '/charge', '/wallet'].map((path) => [path, API])),
  },
});
