import type { Language } from '@caisse/intl';
import { type FormEvent, useEffect, useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api, ApiProblem } from '../api.ts';
import type { Session } from '../types.ts';
import { ErrorNotice, LanguageSwitch } from '../ui.tsx';

export function Login({ onSignedIn, expired, language, onLanguage }: { onSignedIn: (s: Session) => void; expired: boolean; language: Language; onLanguage: (l: Language) => void }) {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const docTitle = t('login.docTitle');

  useEffect(() => {
    document.title = docTitle;
  }, [docTitle]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api<Session>('POST', '/login', { email, password }));
    } catch (err) {
      if (err instanceof ApiProblem && err.code === 'login_locked' && err.retryAfter) {
        setError(new Error(t('login.locked', { minutes: Math.ceil(err.retryAfter / 60) })));
      } else setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="center-page">
      <main className="panel" aria-labelledby="signin-title">
        <div className="actions" style={{ marginTop: 0, justifyContent: 'space-between' }}>
          <p className="brand">Caisse</p>
          <LanguageSwitch value={language} onChange={onLanguage} />
        </div>
        <h1 id="signin-title">{t('login.title')}</h1>
        {expired && (
          <div className="notice info" role="status">
            {t('login.expired')}
          </div>
        )}
        <ErrorNotice error={error} />
        <form onSubmit={submit} noValidate={false}>
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
      </main>
    </div>
  );
}
