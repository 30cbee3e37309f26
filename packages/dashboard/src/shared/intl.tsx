import { formatAmount, formatDateTime, type Language } from '@caisse/intl';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { type ReactNode, useEffect } from 'react';
import { IntlProvider, useIntl } from 'react-intl';
import type en from '../messages/en.json';

/**
 * Formatting texts with whichever catalogue a page was given, without bundling any: the hosted
 * checkout gets its one catalogue from the server's HTML (checkout/main.tsx), the dashboard both
 * of its own (i18n.tsx).
 */
export type MessageId = keyof typeof en;
/** A catalogue: ICU MessageFormat texts, or their syntax trees parsed at build time (the checkout's). */
export type Messages = Record<string, string> | Record<string, MessageFormatElement[]>;

type Values = Record<string, string | number>;
type RichValues = Record<string, ReactNode | ((chunks: ReactNode[]) => ReactNode)>;

/** The tags any message may use: `<b>` (strong) and `<code>`; a call adds its own (a link). */
const TAGS = {
  b: (chunks: ReactNode[]) => <strong>{chunks}</strong>,
  code: (chunks: ReactNode[]) => <code>{chunks}</code>,
};

/** `messages` (in `language`, written as `locale` writes it) for everything inside. */
export function TextsIntl({ locale, language, messages, children }: { locale: string; language: Language; messages: Messages; children: ReactNode }) {
  return (
    <IntlProvider locale={locale} defaultLocale={language} messages={messages}>
      {children}
    </IntlProvider>
  );
}

/** Texts, amounts and dates in the language of the nearest `DashboardIntl` or `TextsIntl`. */
export function useI18n() {
  const intl = useIntl();
  return {
    locale: intl.locale,
    /** A plain text (attributes, titles, options). */
    t: (id: MessageId, values?: Values): string => intl.formatMessage({ id }, values),
    /** A text with markup: `<b>`, `<code>`, and the tags `values` gives as functions. */
    rich: (id: MessageId, values: RichValues = {}): ReactNode => intl.formatMessage({ id }, { ...TAGS, ...values }),
    /** An amount of the API (decimal string in major units) as the locale writes it: `5 000 FCFA`. */
    money: (amount: string, currency: string) => formatAmount(amount, currency, intl.locale),
    /** A date and time as the locale writes it (`23 nov. 2026, 10:00`); a dash when there is none. */
    dateTime: (iso: string | null | undefined) => (iso ? formatDateTime(iso, intl.locale) : '—'),
  };
}

/** The page's language for assistive technology and the browser (the `<html lang>`). */
export function useDocumentLanguage(language: Language) {
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
}
