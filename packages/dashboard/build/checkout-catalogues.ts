import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';

const LANGUAGES = ['en', 'fr'] as const;

/** Where the server finds each language's catalogue of the hosted checkout (dashboard.pages.ts). */
export const CATALOGUE_MANIFEST = 'checkout-messages.json';

/**
 * The hosted checkout's texts, one file per language: @caisse/react's catalogue and the
 * dashboard's `hosted.*` texts. The server inlines the payer's language in the page's HTML and
 * names the others' hashed files, so the page never carries both catalogues nor the dashboard's.
 * Each message is parsed here, at build time, into the syntax tree react-intl formats, so the page
 * carries no ICU parser (vite.checkout.config.ts swaps it for formatjs's parser-less entry).
 */
export function checkoutCatalogues(root: string): Plugin {
  const read = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8')) as Record<string, string>;
  return {
    name: 'caisse-checkout-catalogues',
    apply: 'build',
    generateBundle() {
      const files: Record<string, string> = {};
      for (const language of LANGUAGES) {
        const hosted = Object.entries(read(`src/messages/${language}.json`)).filter(([id]) => id.startsWith('hosted.'));
        const texts = { ...read(`../react/src/messages/${language}.json`), ...Object.fromEntries(hosted) };
        const messages = Object.fromEntries(Object.entries(texts).map(([id, text]) => [id, parse(text)]));
        const ref = this.emitFile({ type: 'asset', name: `checkout-${language}.json`, source: JSON.stringify(messages) });
        files[language] = this.getFileName(ref);
      }
      this.emitFile({ type: 'asset', fileName: CATALOGUE_MANIFEST, source: JSON.stringify(files) });
    },
  };
}
