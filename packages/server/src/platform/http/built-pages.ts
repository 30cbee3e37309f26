import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply } from 'fastify';
import { chooseLanguage } from '@caisse/intl';
import { ApiError } from '../errors.ts';
import { requestedLanguages } from '../i18n.ts';

/**
 * The pages `npm run build -w @caisse/dashboard` writes to packages/dashboard/dist: the merchant
 * dashboard, the hosted checkout and the operator console, one build with shared assets.
 */
export const PAGES_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'dashboard', 'dist');

function notBuilt(): ApiError {
  return new ApiError('not_found', 'The pages are not built: run `npm run build -w @caisse/dashboard` (npm start does it)');
}

/** A built file, or 404 `not_found` saying how to build it. Read on each request: a rebuild shows without a restart. */
export async function readBuilt(dist: string, file: string): Promise<Buffer> {
  try {
    return await readFile(join(dist, file));
  } catch {
    throw notBuilt();
  }
}

/** HTML-attribute escaping. */
export function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The page's `<html lang>`: the language its texts are in (the built pages say "en"). */
export function withLang(html: string, language: string): string {
  return html.replace(/<html lang="[^"]*">/, `<html lang="${attribute(language)}">`);
}

export function sendHtml(reply: FastifyReply, body: string | Buffer) {
  // Pages change with every build and the checkout page embeds a key: never cached.
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
}

/** An app page (the dashboard, the console): its HTML in the first paint's language, from Accept-Language; the app then follows the user's choice. */
export async function sendAppPage(dist: string, file: string, req: { headers: { 'accept-language'?: string | string[] } }, reply: FastifyReply) {
  const { language } = chooseLanguage({ requested: requestedLanguages(req.headers['accept-language']) });
  return sendHtml(reply, withLang((await readBuilt(dist, file)).toString('utf8'), language));
}
