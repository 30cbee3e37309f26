import { chooseLanguage, isLanguage } from '@caisse/intl';
import { browserLanguages } from '@caisse/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/styles.css';
import { type Catalogues, type CheckoutConfig, HostedCheckout } from './HostedCheckout.tsx';

function json<T>(raw: string | null | undefined): Partial<T> {
  try {
    const parsed: unknown = JSON.parse(raw ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Partial<T>) : {};
  } catch {
    /* a page without its configuration is a link that is not valid */
    return {};
  }
}

/**
 * The server fills the meta tag with the merchant's name, the publishable key of the intent's
 * mode, the page's language and where each language's texts are, and the `caisse-messages`
 * script with the texts of the page's language; without them the browser's languages decide.
 */
function readConfig(): CheckoutConfig {
  const parsed = json<{
    apiKey: string;
    merchantName: string;
    livemode: boolean;
    language: string;
    locale: string;
    returnUrl: string;
    catalogues: Catalogues['catalogues'];
  }>(document.querySelector<HTMLMetaElement>('meta[name="caisse-checkout"]')?.content);
  const choice =
    isLanguage(parsed.language) && typeof parsed.locale === 'string'
      ? { language: parsed.language, locale: parsed.locale }
      : chooseLanguage({ requested: browserLanguages() });
  const texts: Catalogues = {
    messages: json<Record<string, string>>(document.getElementById('caisse-messages')?.textContent) as Catalogues['messages'],
    catalogues: parsed.catalogues ?? {},
  };
  if (typeof parsed.apiKey === 'string' && typeof parsed.merchantName === 'string') {
    const returnUrl = typeof parsed.returnUrl === 'string' ? parsed.returnUrl : undefined;
    return {
      ...choice,
      ...texts,
      apiKey: parsed.apiKey,
      merchantName: parsed.merchantName,
      livemode: parsed.livemode === true,
      ...(returnUrl ? { returnUrl } : {}),
    };
  }
  return { ...choice, ...texts, error: 'not_found' };
}

const sessionToken = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] ?? '');

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <HostedCheckout config={readConfig()} sessionToken={sessionToken} />
  </StrictMode>,
);
