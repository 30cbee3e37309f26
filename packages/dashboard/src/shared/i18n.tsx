import { formatAmount, formatDateTime, type Language, type LanguageChoice } from '@caisse/intl';
import { type ReactNode, useEffect } from 'react';
import { IntlProvider, useIntl } from 'react-intl';
import en from '../messages/en.json' with { type: 'json' };
import fr from '../messages/fr.json' with { type: 'json' };

/**
 * The texts of the dashboard and the hosted checkout page, in French and English:
 * ICU MessageFormat catalogues (`src/messages/{fr,en}.json`) formatted by react-intl. A page reads
 * them with `useI18n()`; packages/dashboard/README.md says how to add a page.
 */
export type MessageId = keyof typeof en;
export const MESSAGES: Record<Language, Record<MessageId, string>> = { en, fr };

type Values = Record<string, string | number>;
type RichValues = Record<string, ReactNode | ((chunks: ReactNode[]) => ReactNode)>;

/** The tags any message may use: `<b>` (strong) and `<code>`; a call adds its own (a link). */
const TAGS = {
  b: (chunks: ReactNode[]) => <strong>{chunks}</strong>,
  code: (chunks: ReactNode[]) => <code>{chunks}</code>,
};

/** The dashboard's texts in `choice`'s language for everything inside (`extra`: another catalogue beside it). */
export function DashboardIntl({ choice, extra, children }: { choice: LanguageChoice; extra?: Record<string, string>; children: ReactNode }) {
  return (
    <IntlProvider locale={choice.locale} defaultLocale={choice.language} messages={{ ...extra, ...MESSAGES[choice.language] }}>
      {children}
    </IntlProvider>
  );
}

/** Texts, amounts and dates in the language of the nearest `DashboardIntl`. */
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
