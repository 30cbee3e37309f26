import { chooseLanguage, isLanguage } from '@caisse/intl';
import { browserLanguages } from '@caisse/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/styles.css';
import { type CheckoutConfig, HostedCheckout } from './HostedCheckout.tsx';

/**
 * The server fills the meta tag with the merchant's name, the publishable key of the intent's
 * mode and the page's language; without them the browser's languages decide.
 */
function readConfig(): CheckoutConfig {
  const raw = document.querySelector<HTMLMetaElement>('meta[name="caisse-checkout"]')?.content ?? '{}';
  let parsed: Partial<{ apiKey: string; merchantName: string; livemode: boolean; language: string; locale: string; returnUrl: string }> = {};
  try {
    parsed = JSON.parse(raw) as typeof parsed;
  } catch {
    /* a page without its configuration is a link that is not valid */
  }
  const choice =
    isLanguage(parsed.language) && typeof parsed.locale === 'string'
      ? { language: parsed.language, locale: parsed.locale }
      : chooseLanguage({ requested: browserLanguages() });
  if (typeof parsed.apiKey === 'string' && typeof parsed.merchantName === 'string') {
    const returnUrl = typeof parsed.returnUrl === 'string' ? parsed.returnUrl : undefined;
    return { ...choice, apiKey: parsed.apiKey, merchantName: parsed.merchantName, livemode: parsed.livemode === true, ...(returnUrl ? { returnUrl } : {}) };
  }
  return { ...choice, error: 'not_found' };
}

const sessionToken = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] ?? '');

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <HostedCheckout config={readConfig()} sessionToken={sessionToken} />
  </StrictMode>,
);
