import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { chooseLanguage, type LanguageChoice } from '@caisse/intl';
import { ApiError } from '../../platform/errors.ts';
import { attribute, PAGES_DIST, readBuilt, sendAppPage, sendAsset, sendHtml, withLang } from '../../platform/http/built-pages.ts';
import { requestedLanguages } from '../../platform/i18n.ts';
import type { CheckoutPageConfig } from './dashboard.service.ts';

/** Where `npm run build -w @caisse/dashboard` writes the built pages (packages/dashboard/dist). */
export const DASHBOARD_DIST = PAGES_DIST;

/** Built asset names are flat and content-hashed: nothing else is served, so no path escapes. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}$/;
/** The placeholders the checkout page's HTML carries for the server to fill. */
const CHECKOUT_META = '<meta name="caisse-checkout" content="{}">';
const CHECKOUT_MESSAGES = '<script type="application/json" id="caisse-messages">{}</script>';
/** Where the checkout's build says each language's catalogue is (packages/dashboard/build/checkout-catalogues.ts). */
const CATALOGUE_MANIFEST = 'checkout-messages.json';

/** The checkout's texts: the page language's catalogue (JSON), and where each language's is, to follow a signed-in customer's. */
export type CheckoutTexts = { messages: string; catalogues: Record<string, string> };

/**
 * The checkout page's HTML with its configuration (or `{error}`) in the meta tag, its language
 * (docs/spec/languages.md: the request's Accept-Language, else the merchant's default, else French; the
 * page follows the customer's saved language once they sign in), and that language's texts inlined,
 * so the pay button waits on no request but the page's script (a payer on 3G pays each round trip).
 */
export function renderCheckout(template: string, config: CheckoutPageConfig | { error: 'not_found' }, choice: LanguageChoice, texts?: CheckoutTexts): string {
  const embedded = { ...config, language: choice.language, locale: choice.locale, ...(texts ? { catalogues: texts.catalogues } : {}) };
  const html = withLang(template, choice.language).replace(
    CHECKOUT_META,
    () => `<meta name="caisse-checkout" content="${attribute(JSON.stringify(embedded))}">`,
  );
  // `<` escaped so no text can close the script element.
  return texts
    ? html.replace(CHECKOUT_MESSAGES, () => `<script type="application/json" id="caisse-messages">${texts.messages.replace(/</g, '\\u003c')}</script>`)
    : html;
}

/** The texts of `language` and where each language's are; none when the build wrote no catalogues (a test's pages). */
async function checkoutTexts(dist: string, language: string): Promise<CheckoutTexts | undefined> {
  let files: Record<string, string>;
  try {
    files = JSON.parse(await readFile(join(dist, CATALOGUE_MANIFEST), 'utf8')) as Record<string, string>;
  } catch {
    return undefined;
  }
  const file = files[language];
  if (!file) return undefined;
  const messages = (await readBuilt(dist, file)).toString('utf8');
  return { messages, catalogues: Object.fromEntries(Object.entries(files).map(([lang, path]) => [lang, `/dashboard/${path}`])) };
}

/**
 * The built pages: the dashboard app at `/dashboard` (and any path below it, for the app's own
 * routes), its assets at `/dashboard/assets/…`, and the hosted checkout at `/checkout/{token}`.
 * Read from disk on each request (a few small files), so a rebuild shows without a restart.
 */
export default function registerPages(instance: FastifyInstance, dist = DASHBOARD_DIST) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const dashboard = app.services.dashboard;
  const page = { auth: 'none' as const, csp: 'page' as const };

  const dashboardPage = (req: { headers: { 'accept-language'?: string | string[]; 'accept-encoding'?: string | string[] } }, reply: FastifyReply) =>
    sendAppPage(dist, 'dashboard.html', req, reply);
  app.get('/dashboard', { config: page, schema: { hide: true } }, dashboardPage);

  app.get('/dashboard/*', { config: page, schema: { hide: true } }, async (req, reply) => {
    const rest = (req.params as { '*': string })['*'];
    if (!rest.startsWith('assets/')) return dashboardPage(req, reply);
    const name = rest.slice('assets/'.length);
    if (!ASSET_NAME.test(name)) throw new ApiError('not_found', 'No such asset');
    return sendAsset(join(dist, 'assets', name), req.headers['accept-encoding'], reply);
  });

  app.get(
    '/checkout/:sessionToken',
    {
      config: page,
      schema: {
        tags: ['hosted checkout'],
        summary: 'The hosted checkout page of a payment intent',
        description:
          "An HTML page for the customer: the merchant's name, the amount and description, then phone number and password, a code by SMS or e-mail, and pay. " +
          "The page runs the browser client with the publishable API key of the intent's merchant and mode, which the server embeds in the page " +
          '(a key named "Hosted checkout", made on first use and kept encrypted so it can be embedded; revoking it makes a new one). Never a secret key. ' +
          'An unknown token answers 404 with the same page, saying the link is not valid. ' +
          "Its language: the request's `Accept-Language` (French or English), else the merchant's default, else French; once the customer signs in, their saved language.",
        params: Type.Object({ sessionToken: Type.String({ maxLength: 200 }) }),
      },
    },
    async (req, reply) => {
      const template = (await readBuilt(dist, 'checkout.html')).toString('utf8');
      const config = await dashboard.checkoutPage(req.params.sessionToken);
      const choice = chooseLanguage({ requested: requestedLanguages(req.headers['accept-language']), merchantDefault: config?.merchantLanguage });
      const texts = await checkoutTexts(dist, choice.language);
      // An unknown token is a 404 all the same (crawlers, monitors, a merchant's own checks), with the page saying so.
      return sendHtml(
        reply.code(config ? 200 : 404),
        renderCheckout(template, config ?? { error: 'not_found' }, choice, texts),
        req.headers['accept-encoding'],
      );
    },
  );
}
