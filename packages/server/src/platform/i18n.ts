import { chooseLanguage, formatAmount as writeAmount, type Language, type LanguageChoice, languageOf, parseAcceptLanguage } from '@caisse/intl';
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import en from '../messages/en.json' with { type: 'json' };
import fr from '../messages/fr.json' with { type: 'json' };
import { type Currency, formatAmount as majorUnits } from './money.ts';

/**
 * The texts the server writes to people (SMS and e-mail), in French and English:
 * ICU MessageFormat catalogues in `src/messages/{fr,en}.json`, formatted by FormatJS. API error
 * `detail` texts are not here: they stay English, `code` is what clients translate.
 */
export type MessageId = keyof typeof en;
export type { Language } from '@caisse/intl';

const CATALOGUES: Record<Language, Record<MessageId, string>> = { en, fr };
const cache = createIntlCache();
const intls = new Map<string, IntlShape>();

/** Who reads a message, in docs/spec/languages.md's order: their saved language, what their request asked for, the merchant's default. */
export interface Reader {
  saved?: string | null;
  /** The request's languages, most wanted first (`requestedLanguages(header)`). */
  requested?: readonly string[];
  merchantDefault?: string | null;
}

export interface Translator extends LanguageChoice {
  text(id: MessageId, values?: Record<string, string | number>): string;
  /** Minor units as the locale writes them: `5 000 FCFA`, `FCFA 5,000`. */
  amount(minor: bigint, currency: Currency): string;
}

function intlFor(choice: LanguageChoice): IntlShape {
  let intl = intls.get(choice.locale);
  if (!intl) {
    intl = createIntl({ locale: choice.locale, defaultLocale: choice.language, messages: CATALOGUES[choice.language] }, cache);
    intls.set(choice.locale, intl);
  }
  return intl;
}

/** The texts of one reader's language. */
export function translator(reader: Reader): Translator {
  const choice = chooseLanguage(reader);
  const intl = intlFor(choice);
  return {
    ...choice,
    text: (id, values) => intl.formatMessage({ id }, values),
    amount: (minor, currency) => writeAmount(majorUnits(minor, currency), currency, choice.locale),
  };
}

/** An `Accept-Language` header's tags, most wanted first. */
export function requestedLanguages(header: string | string[] | undefined): string[] {
  return parseAcceptLanguage(Array.isArray(header) ? header.join(',') : header);
}

/**
 * The language a person asked for, to save: an explicit `fr`/`en` tag (`fr-CM` is French) first,
 * else the first of the request's languages we have; null when neither names one.
 */
export function languageToSave(explicit: string | undefined, requested: readonly string[]): Language | null {
  return languageOf(explicit) ?? requested.map(languageOf).find((l) => l !== undefined) ?? null;
}
