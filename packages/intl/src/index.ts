/**
 * Caisse's languages, in one place for the server, `@caisse/react` and the
 * dashboard: which language a person reads, and how amounts and dates are written in it. No
 * dependency: the platform's `Intl` does the formatting, so `5 000 FCFA` is what Intl writes.
 */

/** The languages every text of Caisse exists in. */
export const LANGUAGES = ['fr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Where nothing else decides: French, which most of our customers read first. */
export const DEFAULT_LANGUAGE: Language = 'fr';

/** What a language is called in itself, for a language switch. */
export const LANGUAGE_NAMES: Record<Language, string> = { fr: 'Français', en: 'English' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language of a tag we have texts in: "fr-CM" → "fr", "EN_us" → "en", "de" → undefined. */
export function languageOf(tag: string | null | undefined): Language | undefined {
  const primary = tag?.trim().split(/[-_]/)[0]?.toLowerCase();
  return isLanguage(primary) ? primary : undefined;
}

/**
 * An `Accept-Language` header's tags, most wanted first (RFC 9110 §12.5.4): "fr-CM,fr;q=0.9,
 * en;q=0.8" → ["fr-CM", "fr", "en"]. Tags with q=0 and "*" are dropped; equal weights keep their
 * order.
 */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  const tags: { tag: string; q: number; at: number }[] = [];
  header.split(',').forEach((part, at) => {
    const [tag = '', ...params] = part.trim().split(';');
    const trimmed = tag.trim();
    if (!/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(trimmed)) return;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) return;
    tags.push({ tag: trimmed, q: Math.min(q, 1), at });
  });
  return tags.sort((a, b) => b.q - a.q || a.at - b.at).map((t) => t.tag);
}

/** The language a person reads, and the locale (a BCP 47 tag) amounts and dates are written for. */
export interface LanguageChoice {
  language: Language;
  /** "fr-CM" when the person asked for it, else the language itself ("fr"). */
  locale: string;
}

/** The requested tags of one language, as `Intl` accepts them ("fr_CM" → "fr-CM"); invalid ones are dropped. */
function localeFor(language: Language, requested: readonly string[]): string {
  for (const tag of requested) {
    if (languageOf(tag) !== language) continue;
    try {
      return Intl.getCanonicalLocales(tag.replace(/_/g, '-'))[0] ?? language;
    } catch {
      /* not a tag Intl knows: try the next */
    }
  }
  return language;
}

/**
 * docs/spec/languages.md: the customer's (or dashboard user's) saved language, else the first requested one
 * we have (`Accept-Language`, the `locale` prop, the browser's languages), else the merchant's
 * default, else French. The locale keeps the region the person asked for in that language
 * (`fr-CM`, `fr-SN`), so amounts read as they expect.
 */
export function chooseLanguage(choice: {
  saved?: string | null;
  requested?: string | readonly string[] | null;
  merchantDefault?: string | null;
}): LanguageChoice {
  const requested = typeof choice.requested === 'string' ? [choice.requested] : (choice.requested ?? []);
  const language = languageOf(choice.saved) ?? requested.map(languageOf).find((l) => l !== undefined) ?? languageOf(choice.merchantDefault) ?? DEFAULT_LANGUAGE;
  return { language, locale: localeFor(language, requested) };
}

/**
 * An amount as `Intl` writes it in the locale: fr-CM XAF "5 000 FCFA", fr-SN XOF "5 000 F CFA",
 * en XAF "FCFA 5,000", fr EUR "12,50 €". `amount` is the API's decimal string in major units: it
 * goes to Intl as a string, so no float ever rounds it. A currency Intl does not know reads
 * "5000 ABC".
 */
// Making an Intl formatter costs far more than using one (the server formats an amount in every
// SMS): one per locale and currency, or per locale and options, kept.
const amountFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function amountFormat(locale: string, currency: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let format = amountFormats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    if (amountFormats.size < 256) amountFormats.set(key, format);
  }
  return format;
}

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${options.dateStyle ?? ''}|${options.timeStyle ?? ''}|${options.timeZone ?? ''}`;
  let format = dateFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, options);
    if (dateFormats.size < 256) dateFormats.set(key, format);
  }
  return format;
}

export function formatAmount(amount: string, currency: string, locale: string): string {
  try {
    // A decimal string is formatted exactly (ES2023 Intl.NumberFormat v3); typed as a number for
    // the packages that compile this with an older `lib`.
    return amountFormat(locale, currency).format(amount as unknown as number);
  } catch {
    return `${amount} ${currency}`;
  }
}

const asDate = (value: string | Date) => (typeof value === 'string' ? new Date(value) : value);

/** A day as the locale writes it: fr "23 nov. 2026", en "Nov 23, 2026". */
export function formatDate(value: string | Date, locale: string, timeZone?: string): string {
  return dateFormat(locale, { dateStyle: 'medium', ...(timeZone ? { timeZone } : {}) }).format(asDate(value));
}

/** A day and time: fr "23 nov. 2026, 10:00", en "Nov 23, 2026, 10:00 AM". */
export function formatDateTime(value: string | Date, locale: string, timeZone?: string): string {
  return dateFormat(locale, { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) }).format(asDate(value));
}
