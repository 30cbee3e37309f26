import type { Language } from '@caisse/intl';
import { type FormEvent, useEffect, useState } from 'react';
import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import { useResendVerification, useSignUp, useVerifyEmail } from '../queries/onboarding.ts';
import { Link } from '../router.tsx';
import type { Country, SignUpRequested } from '../types.ts';
import { ErrorNotice, StatusNotice } from '../ui.tsx';
import { CenterPanel, NewPasswordField, useSubmit } from './Login.tsx';

/** Where a business may sell, each by its name in the page's language. */
const COUNTRY_NAMES = {
  CM: 'signup.countryCM',
  SN: 'signup.countrySN',
  CI: 'signup.countryCI',
  BJ: 'signup.countryBJ',
  BF: 'signup.countryBF',
  ML: 'signup.countryML',
  TG: 'signup.countryTG',
} as const satisfies Record<Country, MessageId>;
const COUNTRIES = Object.keys(COUNTRY_NAMES) as Country[];

/**
 * `/dashboard/sign-up`: a business asks to sign up (name, country, e-mail, password); the server
 * answers alike whoever owns the address, so the page then asks to open the link of the e-mail,
 * which makes the account (and says, in development, where that e-mail went).
 */
export function SignUp({ language, onLanguage }: { language: Language; onLanguage: (l: Language) => void }) {
  const { t } = useI18n();
  const [businessName, setBusinessName] = useState('');
  const [country, setCountry] = useState<string>('CM');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [asked, setAsked] = useState<{ email: string; answer: SignUpRequested } | null>(null);
  const signUp = useSignUp();
  const { busy, error, run } = useSubmit();
  const docTitle = t(asked ? 'signup.checkDocTitle' : 'signup.docTitle');

  useEffect(() => {
    document.title = docTitle;
  }, [docTitle]);

  function submit(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      const answer = await signUp.mutateAsync({ businessName, country, email, password, language });
      setPassword('');
      setAsked({ email: email.trim(), answer });
    });
  }

  if (asked) return <CheckEmail email={asked.email} answer={asked.answer} language={language} onLanguage={onLanguage} />;

  return (
    <CenterPanel title={t('signup.title')} language={language} onLanguage={onLanguage}>
      <p>{t('signup.intro')}</p>
      <ErrorNotice error={error} />
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="business-name">{t('signup.businessName')}</label>
          <input id="business-name" required maxLength={200} value={businessName} onChange={(e) => setBusinessName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="country">{t('signup.country')}</label>
          <select id="country" value={country} onChange={(e) => setCountry(e.target.value)}>
            {COUNTRIES.map((c) => (
              <option key={c} value={c}>
                {t(COUNTRY_NAMES[c])}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="email">{t('login.email')}</label>
          <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <NewPasswordField label={t('login.password')} value={password} onChange={setPassword} />
        <button type="submit" disabled={busy}>
          {busy ? t('signup.signingUp') : t('signup.signUp')}
        </button>
      </form>
      <p>
        <Link to="/dashboard">{t('signup.toSignIn')}</Link>
      </p>
    </CenterPanel>
  );
}

/** After the sign-up: open the link of the e-mail (or ask for it again). */
function CheckEmail({
  email,
  answer,
  language,
  onLanguage,
}: {
  email: string;
  answer: SignUpRequested;
  language: Language;
  onLanguage: (l: Language) => void;
}) {
  const { t } = useI18n();
  const resend = useResendVerification();
  return (
    <CenterPanel title={t('signup.checkTitle')} language={language} onLanguage={onLanguage}>
      <StatusNotice tone="info">{t('signup.checkSent', { email, days: Math.round(answer.expiresInSeconds / 86400) })}</StatusNotice>
      <p>{t('signup.checkExisting')}</p>
      {answer.delivery === 'operator_outbox' ? (
        <div className="notice warning">
          <p>{t('signup.checkOutbox')}</p>
          <pre>
            <code>npx caisse messages list --to {email}</code>
          </pre>
        </div>
      ) : null}
      {resend.isSuccess ? <StatusNotice>{t('signup.resent')}</StatusNotice> : null}
      <ErrorNotice error={resend.error} />
      <p>
        <button type="button" className="secondary" disabled={resend.isPending} onClick={() => resend.mutate(email)}>
          {t('signup.resend')}
        </button>
      </p>
      <p>
        <Link to="/dashboard">{t('signup.toSignIn')}</Link>
      </p>
    </CenterPanel>
  );
}

/** `/dashboard/verify-email?token=…`: the link of the sign-up e-mail; works signed in or not. */
export function VerifyEmail({ token, language, onLanguage }: { token: string; language: Language; onLanguage: (l: Language) => void }) {
  const { t } = useI18n();
  const verify = useVerifyEmail();
  const { mutate } = verify;
  const docTitle = t('verify.docTitle');

  useEffect(() => {
    document.title = docTitle;
  }, [docTitle]);
  useEffect(() => {
    mutate(token);
  }, [mutate, token]);

  return (
    <CenterPanel title={t('verify.title')} language={language} onLanguage={onLanguage}>
      {verify.isSuccess ? <StatusNotice>{t('verify.done', { email: verify.data.email })}</StatusNotice> : null}
      {verify.isSuccess ? <p>{t('verify.signInNow')}</p> : null}
      {verify.isPending ? <p role="status">{t('verify.checking')}</p> : null}
      <ErrorNotice error={verify.error} />
      <p>
        <a href="/dashboard">{t(verify.isSuccess ? 'verify.toSignIn' : 'verify.toDashboard')}</a>
      </p>
    </CenterPanel>
  );
}
