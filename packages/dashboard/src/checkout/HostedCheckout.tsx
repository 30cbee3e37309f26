import { chooseLanguage, type Language, type LanguageChoice } from '@caisse/intl';
import { CaisseProvider, OutcomeStep } from '@caisse/react';
import { useEffect, useState } from 'react';
import { type Messages, TextsIntl, useDocumentLanguage, useI18n } from '../shared/intl.tsx';
import { Flow } from './Flow.tsx';
import { StepTitle } from './StepTitle.tsx';

/**
 * What the server embeds in the page's `caisse-checkout` meta tag (dashboard.pages.ts), with the
 * language it chose from Accept-Language and the merchant's default.
 */
export type CheckoutConfig = LanguageChoice &
  Catalogues &
  ({ apiKey: string; merchantName: string; livemode: boolean; returnUrl?: string | null } | { error: 'not_found' });

/**
 * The page's texts: the catalogue of `language` (the hosted page's and @caisse/react's texts in
 * one), which the server puts in the HTML so none is fetched before the first screen, and where
 * the others are, fetched only if the customer's saved language differs.
 */
export type Catalogues = { messages: Messages; catalogues: Partial<Record<Language, string>> };

/**
 * The hosted checkout page: the intent of the session token in the URL, paid with @caisse/react,
 * in the language the server chose, then in the customer's saved language once they sign in.
 */
export function HostedCheckout({ config, sessionToken }: { config: CheckoutConfig; sessionToken: string }) {
  const [saved, setSaved] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<Partial<Record<Language, Messages>>>({ [config.language]: config.messages });
  const wanted: LanguageChoice = saved ? chooseLanguage({ saved, requested: [config.locale] }) : { language: config.language, locale: config.locale };
  const url = config.catalogues[wanted.language];
  const missing = loaded[wanted.language] === undefined && url !== undefined;
  useEffect(() => {
    if (!missing || url === undefined) return;
    let live = true;
    fetch(url)
      .then((res) => (res.ok ? (res.json() as Promise<Messages>) : undefined))
      .then((messages) => {
        if (live && messages) setLoaded((all) => ({ ...all, [wanted.language]: messages }));
      })
      // Not fetched (the link dropped): the page stays in the language it has.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [missing, url, wanted.language]);
  // Until the saved language's texts arrive, the page stays in the one it has.
  const messages = loaded[wanted.language];
  const choice: LanguageChoice = messages ? wanted : { language: config.language, locale: config.locale };
  useDocumentLanguage(choice.language);
  return (
    <TextsIntl locale={choice.locale} language={choice.language} messages={messages ?? config.messages}>
      <Page config={config} sessionToken={sessionToken} onSavedLanguage={setSaved} />
    </TextsIntl>
  );
}

function Page({ config, sessionToken, onSavedLanguage }: { config: CheckoutConfig; sessionToken: string; onSavedLanguage: (language: string | null) => void }) {
  const { t } = useI18n();
  return (
    <div className="center-page">
      <main className="panel" aria-label={t('hosted.checkoutLabel')}>
        {'error' in config ? (
          <OutcomeStep icon="?" title={<StepTitle>{t('hosted.invalidLinkTitle')}</StepTitle>}>
            <p>{t('hosted.invalidLinkText')}</p>
          </OutcomeStep>
        ) : (
          <>
            {!config.livemode && (
              <p className="test-ribbon" role="note">
                {t('hosted.testMode')}
              </p>
            )}
            <CaisseProvider apiKey={config.apiKey} clientSecret={sessionToken} baseUrl={window.location.origin}>
              <Flow merchantName={config.merchantName} returnUrl={config.returnUrl} onSavedLanguage={onSavedLanguage} />
            </CaisseProvider>
          </>
        )}
        <p className="hint" style={{ marginTop: '1.5rem', textAlign: 'center' }}>
          {t('hosted.securedBy')}
        </p>
        {!('error' in config) && (
          // The customer's whole history across merchants lives on the gateway's own page, not in any merchant's.
          <p className="hint" style={{ textAlign: 'center' }}>
            <a href={config.livemode ? '/account' : '/account/test'}>{t('hosted.myAccount')}</a>
          </p>
        )}
      </main>
    </div>
  );
}
