import type { Language } from '@caisse/intl';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api, ApiProblem } from '../api.ts';
import { Link } from '../router.tsx';
import type { LoginChallenge, Session } from '../types.ts';
import { ErrorNotice, LanguageSwitch, StatusNotice } from '../ui.tsx';

/** The sign-in pages' frame: brand, language switch, a heading. */
export function CenterPanel({
  title,
  language,
  onLanguage,
  children,
}: {
  title: string;
  language: Language;
  onLanguage: (l: Language) => void;
  children: ReactNode;
}) {
  return (
    <div className="center-page">
      <main className="panel" aria-labelledby="signin-title">
        <div className="actions" style={{ marginTop: 0, justifyContent: 'space-between' }}>
          <p className="brand">Caisse</p>
          <LanguageSwitch value={language} onChange={onLanguage} />
        </div>
        <h1 id="signin-title">{title}</h1>
        {children}
      </main>
    </div>
  );
}

/** A new password's field, with the policy's hint (the server checks it: 400 `password_weak`). */
export function NewPasswordField({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const { t } = useI18n();
  return (
    <div className="field">
      <label htmlFor="new-password">
        {label}
        <span className="hint">{t('account.passwordRule')}</span>
      </label>
      <input id="new-password" type="password" autoComplete="new-password" required minLength={8} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

/** Runs a form's request: busy while it runs, the error kept, the sign-in lockout worded (the operator console's forms too). */
export function useSubmit() {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function run(work: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      if (err instanceof ApiProblem && err.code === 'login_locked' && err.retryAfter) {
        setError(new Error(t('login.locked', { minutes: Math.ceil(err.retryAfter / 60) })));
      } else setError(err);
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, setError, run };
}

type Step = { kind: 'password' } | { kind: 'code'; challenge: string } | { kind: 'forgot' } | { kind: 'forgotSent' };

/**
 * Sign-in: e-mail and password; with two-factor sign-in, a second step asks for the code of the
 * authenticator app (or a recovery code). "Forgot password?" asks for a reset link by e-mail.
 */
export function Login({
  onSignedIn,
  expired,
  language,
  onLanguage,
}: {
  onSignedIn: (s: Session) => void;
  expired: boolean;
  language: Language;
  onLanguage: (l: Language) => void;
}) {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const { busy, error, setError, run } = useSubmit();
  const docTitle = t('login.docTitle');

  useEffect(() => {
    document.title = docTitle;
  }, [docTitle]);

  function submitPassword(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      const answer = await api<Session | LoginChallenge>('POST', '/login', { email, password });
      if (answer.object === 'dashboard_login_challenge') {
        setCode('');
        setStep({ kind: 'code', challenge: answer.challenge });
      } else onSignedIn(answer);
    });
  }

  function submitCode(e: FormEvent, challenge: string) {
    e.preventDefault();
    void run(async () => {
      try {
        onSignedIn(await api<Session>('POST', '/login/totp', { challenge, code }));
      } catch (err) {
        // The step expired (5 minutes) or was used: back to the password.
        if (err instanceof ApiProblem && err.code === 'login_challenge_invalid') setStep({ kind: 'password' });
        throw err;
      }
    });
  }

  function submitForgot(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      await api('POST', '/password-reset', { email });
      setStep({ kind: 'forgotSent' });
    });
  }

  /** A link-looking button that moves to another step of the sign-in. */
  const goTo = (to: Step, label: string) => (
    <button
      type="button"
      className="link-button"
      onClick={() => {
        setError(null);
        setStep(to);
      }}
    >
      {label}
    </button>
  );
  const back = goTo({ kind: 'password' }, t('login.backToSignIn'));

  if (step.kind === 'code') {
    return (
      <CenterPanel title={t('login.codeTitle')} language={language} onLanguage={onLanguage}>
        <p>{t('login.codeIntro')}</p>
        <ErrorNotice error={error} />
        <form onSubmit={(e) => submitCode(e, step.challenge)}>
          <div className="field">
            <label htmlFor="code">
              {t('login.code')}
              <span className="hint">{t('login.codeHint')}</span>
            </label>
            <input
              id="code"
              autoComplete="one-time-code"
              inputMode="text"
              required
              autoFocus
              value={code}
              onChange={(e) => setCode(e.target.value)}
              spellCheck={false}
            />
          </div>
          <button type="submit" disabled={busy}>
            {busy ? t('login.verifying') : t('login.verify')}
          </button>
        </form>
        <p>{back}</p>
      </CenterPanel>
    );
  }

  if (step.kind === 'forgot' || step.kind === 'forgotSent') {
    return (
      <CenterPanel title={t('login.forgotTitle')} language={language} onLanguage={onLanguage}>
        {step.kind === 'forgotSent' ? (
          <StatusNotice>{t('login.forgotSent')}</StatusNotice>
        ) : (
          <>
            <p>{t('login.forgotIntro')}</p>
            <ErrorNotice error={error} />
            <form onSubmit={submitForgot}>
              <div className="field">
                <label htmlFor="email">{t('login.email')}</label>
                <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
              </div>
              <button type="submit" disabled={busy}>
                {t('login.sendLink')}
              </button>
            </form>
          </>
        )}
        <p>{back}</p>
      </CenterPanel>
    );
  }

  return (
    <CenterPanel title={t('login.title')} language={language} onLanguage={onLanguage}>
      {expired && (
        <div className="notice info" role="status">
          {t('login.expired')}
        </div>
      )}
      <ErrorNotice error={error} />
      <form onSubmit={submitPassword} noValidate={false}>
        <div className="field">
          <label htmlFor="email">{t('login.email')}</label>
          <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="password">{t('login.password')}</label>
          <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
        <button type="submit" disabled={busy}>
          {busy ? t('login.signingIn') : t('login.signIn')}
        </button>
      </form>
      <p>{goTo({ kind: 'forgot' }, t('login.forgot'))}</p>
      <p>
        <Link to="/dashboard/sign-up">{t('login.signUp')}</Link>
      </p>
    </CenterPanel>
  );
}

/** `/dashboard/reset-password/<token>`: the link of the reset e-mail; a new password, then sign in. */
export function ResetPassword({ token, language, onLanguage }: { token: string; language: Language; onLanguage: (l: Language) => void }) {
  const { t } = useI18n();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, setError, run } = useSubmit();
  const docTitle = t('reset.docTitle');

  useEffect(() => {
    document.title = docTitle;
  }, [docTitle]);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (password !== again) {
      setError(new Error(t('reset.mismatch')));
      return;
    }
    void run(async () => {
      await api('POST', '/password-reset/complete', { token, newPassword: password });
      setDone(true);
    });
  }

  return (
    <CenterPanel title={t('reset.title')} language={language} onLanguage={onLanguage}>
      {done ? (
        <>
          <StatusNotice>{t('reset.done')}</StatusNotice>
          <p>
            <Link to="/dashboard">{t('login.backToSignIn')}</Link>
          </p>
        </>
      ) : (
        <>
          <ErrorNotice error={error} />
          <form onSubmit={submit}>
            <NewPasswordField label={t('reset.newPassword')} value={password} onChange={setPassword} />
            <div className="field">
              <label htmlFor="new-password-again">{t('reset.again')}</label>
              <input id="new-password-again" type="password" autoComplete="new-password" required value={again} onChange={(e) => setAgain(e.target.value)} />
            </div>
            <button type="submit" disabled={busy}>
              {t('reset.submit')}
            </button>
          </form>
          <p>
            <Link to="/dashboard">{t('login.backToSignIn')}</Link>
          </p>
        </>
      )}
    </CenterPanel>
  );
}
