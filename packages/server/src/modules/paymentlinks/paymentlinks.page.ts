import { requestedLanguages, translator, type MessageId } from '../../platform/i18n.ts';
import type { Currency } from '../../platform/money.ts';

/** Why a visit shows a page instead of the checkout. */
export type Unavailable = 'not_found' | 'inactive' | 'rate_limited';

const TEXTS: Record<Unavailable, MessageId> = {
  not_found: 'paymentLinks.notFound',
  inactive: 'paymentLinks.inactive',
  rate_limited: 'paymentLinks.rateLimited',
};

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Robots that fetch a shared link to show its preview (chat apps, social networks, search
 * engines). They get the preview page and create no intent; a person's browser names none of these.
 */
const PREVIEW_ROBOTS =
  /facebookexternalhit|facebot|whatsapp|slackbot|slack-imgproxy|twitterbot|telegrambot|discordbot|linkedinbot|skypeuripreview|embedly|pinterest|redditbot|applebot|googlebot|bingbot|duckduckbot|yandex(bot|images)|baiduspider|iframely|\(compatible;[^)]*\b(bot|crawler|spider)\b/i;

export function isPreviewRobot(userAgent: string | undefined): boolean {
  return userAgent !== undefined && PREVIEW_ROBOTS.test(userAgent);
}

function document(language: string, title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title>${head}
<style>body{font-family:system-ui,sans-serif;background:#f6f7f9;color:#1d2330;margin:0}main{max-width:32rem;margin:15vh auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.08)}h1{font-size:1.4rem;margin:0 0 1rem}@media (max-width:36rem){main{margin:10vh 1rem}}</style>
</head>
<body><main><h1>${title}</h1>${body}</main></body>
</html>
`;
}

/**
 * What a preview robot gets for an open link: the merchant, the amount and the description, as
 * Open Graph tags and a page, in the merchant's language (robots rarely send Accept-Language).
 */
export function previewPage(
  link: { merchantName: string; amountMinor: bigint; currency: Currency; description: string },
  reader: { acceptLanguage: string | string[] | undefined; merchantLanguage: string },
): string {
  const t = translator({ requested: requestedLanguages(reader.acceptLanguage), merchantDefault: reader.merchantLanguage });
  const title = escape(t.text('paymentLinks.previewTitle', { merchant: link.merchantName, amount: t.amount(link.amountMinor, link.currency) }));
  const description = escape(link.description);
  const head = `<meta property="og:type" content="website"><meta property="og:title" content="${title}"><meta property="og:description" content="${description}">`;
  return document(t.language, title, head, `<p>${description}</p>`);
}

/**
 * The small page a person gets instead of the checkout (never a JSON error), in their language:
 * Accept-Language, else the link's merchant's default, else French (docs/spec/languages.md).
 */
export function unavailablePage(
  reason: Unavailable,
  reader: { acceptLanguage: string | string[] | undefined; merchantLanguage?: string; retryAfterSeconds?: number },
): string {
  const t = translator({ requested: requestedLanguages(reader.acceptLanguage), merchantDefault: reader.merchantLanguage });
  const title = escape(t.text('paymentLinks.unavailableTitle'));
  const body = escape(t.text(TEXTS[reason], { seconds: reader.retryAfterSeconds ?? 60 }));
  return document(t.language, title, '', `<p>${body}</p>`);
}
