import type { Language, LanguageChoice } from '@caisse/intl';
import type { ReactNode } from 'react';
import en from '../messages/en.json' with { type: 'json' };
import fr from '../messages/fr.json' with { type: 'json' };
import { type MessageId, TextsIntl } from './intl.tsx';

/**
 * The texts of the dashboard and the operator console, in French and English: ICU MessageFormat
 * catalogues (`src/messages/{fr,en}.json`) formatted by react-intl. A page reads them with
 * `useI18n()`; packages/dashboard/README.md says how to add a page. The hosted checkout does not
 * import this file: it carries only the payer's catalogue (intl.tsx, checkout/main.tsx).
 */
export { type MessageId, useDocumentLanguage, useI18n } from './intl.tsx';
export const MESSAGES: Record<Language, Record<MessageId, string>> = { en, fr };

/** The dashboard's texts in `choice`'s language for everything inside (`extra`: another catalogue beside it). */
export function DashboardIntl({ choice, extra, children }: { choice: LanguageChoice; extra?: Record<string, string>; children: ReactNode }) {
  return (
    <TextsIntl locale={choice.locale} language={choice.language} messages={{ ...extra, ...MESSAGES[choice.language] }}>
      {children}
    </TextsIntl>
  );
}
