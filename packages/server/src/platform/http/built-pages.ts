import { readFile } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { chooseLanguage } from '@caisse/intl';
import { ApiError } from '../errors.ts';
import { requestedLanguages } from '../i18n.ts';

/**
 * The pages `npm run build -w @caisse/dashboard` writes to packages/dashboard/dist: the merchant
 * dashboard and the operator console with shared assets, and the hosted checkout built apart.
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

type Encoding = 'br' | 'gzip';
const EXTENSION: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/**
 * The encodings an Accept-Encoding allows, best first: brotli, then gzip (a payer on 3G pays
 * for every byte); none named, or refused with `q=0`, is not used.
 */
export function acceptedEncodings(header: string | string[] | undefined): Encoding[] {
  const allowed = new Set<string>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) allowed.add(name.trim());
  }
  return (['br', 'gzip'] as const).filter((e) => allowed.has(e));
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

/**
 * A built, content-hashed asset, cached for a year: the brotli or gzip copy the build wrote beside
 * it when the request accepts one (packages/dashboard/build/precompress.ts), else the file itself;
 * 404 `not_found` when there is no such file.
 */
export async function sendAsset(path: string, acceptEncoding: string | string[] | undefined, reply: FastifyReply) {
  reply
    .type(CONTENT_TYPES[extname(path)] ?? 'application/octet-stream')
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('vary', 'Accept-Encoding');
  for (const encoding of acceptedEncodings(acceptEncoding)) {
    try {
      const body = await readFile(path + EXTENSION[encoding]);
      return reply.header('content-encoding', encoding).send(body);
    } catch {
      /* no such copy (an image, or a build without them): the next, or the file itself */
    }
  }
  try {
    return reply.send(await readFile(path));
  } catch {
    throw new ApiError('not_found', 'No such asset');
  }
}

/**
 * A page's HTML, compressed when the request allows (a quick brotli level: the page is a few
 * kilobytes made per request, where the best level would cost milliseconds of CPU).
 */
export function sendHtml(reply: FastifyReply, body: string | Buffer, acceptEncoding?: string | string[]) {
  // Pages change with every build and the checkout page embeds a key: never cached.
  reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'Accept-Encoding');
  const [encoding] = acceptedEncodings(acceptEncoding);
  if (encoding === 'br') return reply.header('content-encoding', 'br').send(brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));
  if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(gzipSync(body, { level: 6 }));
  return reply.send(body);
}

/** An app page (the dashboard, the console): its HTML in the first paint's language, from Accept-Language; the app then follows the user's choice. */
export async function sendAppPage(
  dist: string,
  file: string,
  req: { headers: { 'accept-language'?: string | string[]; 'accept-encoding'?: string | string[] } },
  reply: FastifyReply,
) {
  const { language } = chooseLanguage({ requested: requestedLanguages(req.headers['accept-language']) });
  return sendHtml(reply, withLang((await readBuilt(dist, file)).toString('utf8'), language), req.headers['accept-encoding']);
}
