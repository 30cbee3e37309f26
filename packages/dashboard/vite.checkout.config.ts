import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { checkoutCatalogues } from './build/checkout-catalogues.ts';
import { precompress } from './build/precompress.ts';

/**
 * The hosted checkout (/checkout/{sessionToken}), built apart from the dashboard for a payer on a
 * phone over 3G: one script, one style sheet and the HTML, with nothing shared with the
 * dashboard's chunks. React is Preact's compatibility layer here (same components, a tenth of the
 * bytes); the texts are only the payer's language, parsed at build time, which the server inlines
 * in the HTML (build/checkout-catalogues.ts). Written into the dashboard's dist/ after vite.config.ts's build.
 */
const preact = {
  react: 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react-dom': 'preact/compat',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-dev-runtime',
};

export default defineConfig({
  base: '/dashboard/',
  plugins: [react(), checkoutCatalogues(import.meta.dirname), precompress()],
  resolve: {
    conditions: ['source', 'module', 'browser', 'development|production'],
    alias: [
      ...Object.entries(preact).map(([find, replacement]) => ({ find: new RegExp(`^${find}$`), replacement })),
      // The catalogues come parsed (build/checkout-catalogues.ts): react-intl needs no ICU parser.
      { find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    modulePreload: false,
    rollupOptions: {
      // A busy machine makes the precompression look slow: the timings warning would break the
      // one line `npm start` prints per build step (the newcomer replay reads it).
      checks: { bundlerTimings: false },
      input: { checkout: resolve(import.meta.dirname, 'checkout.html') },
      output: { codeSplitting: false },
    },
  },
});
