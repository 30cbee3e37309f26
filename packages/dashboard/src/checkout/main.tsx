import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/styles.css';
import { type CheckoutConfig, HostedCheckout } from './HostedCheckout.tsx';

/** The server fills the meta tag with the merchant's name and the publishable key of the intent's mode. */
function readConfig(): CheckoutConfig {
  const raw = document.querySelector<HTMLMetaElement>('meta[name="caisse-checkout"]')?.content ?? '{}';
  try {
    const parsed = JSON.parse(raw) as Partial<{ apiKey: string; merchantName: string; livemode: boolean }>;
    if (typeof parsed.apiKey === 'string' && typeof parsed.merchantName === 'string') {
      return { apiKey: parsed.apiKey, merchantName: parsed.merchantName, livemode: parsed.livemode === true };
    }
  } catch {
    /* a page without its configuration is a link that is not valid */
  }
  return { error: 'not_found' };
}

const sessionToken = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] ?? '');

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <HostedCheckout config={readConfig()} sessionToken={sessionToken} />
  </StrictMode>,
);
