import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Three pages, one build: the dashboard (served at /dashboard), the hosted checkout (served at
 * /checkout/{sessionToken}) and the operator console (served at /operator). Assets are
 * content-hashed under /dashboard/assets/, which the server serves. `source` resolves the
 * workspace packages (@caisse/react, @caisse/browser) to their TypeScript sources, so they need
 * no build of their own first.
 */
export default defineConfig({
  base: '/dashboard/',
  plugins: [react()],
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: {
        dashboard: resolve(import.meta.dirname, 'dashboard.html'),
        checkout: resolve(import.meta.dirname, 'checkout.html'),
        operator: resolve(import.meta.dirname, 'operator.html'),
      },
    },
  },
  server: {
    // `npm run dev -w @caisse/dashboard` against a server on :8080 (npm start).
    proxy: {
      '/dashboard/api': 'http://127.0.0.1:8080',
      '/operator/api': 'http://127.0.0.1:8080',
      '/gateway': 'http://127.0.0.1:8080',
      '/auth': 'http://127.0.0.1:8080',
      '/otp': 'http://127.0.0.1:8080',
      '/charge': 'http://127.0.0.1:8080',
      '/wallet': 'http://127.0.0.1:8080',
    },
  },
});
