import type { Language } from '@caisse/intl';
import { type FormEvent, useEffect, useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api } from '../../dashboard/api.ts';
import { CenterPanel, useSubmit } from '../../dashboard/pages/Login.tsx';
import { Field, OperatorError } from '../shared.tsx';
import type { OperatorSession } from '../types.ts';

/** Sign-in: e-mail, password and, once enrolled, the authenticator app's code. */
export function SignIn({
  onSignedIn,
  language,
  onLanguage,
}: {
  onSignedIn: (s: OperatorSession) => void;
  language: Language;
  onLanguage: (l: Language) => void;
}) {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const { busy, error, run } = useSubmit();
  useEffect(() => {
    document.title = t('operator.signInDocTitle');
  }, [t]);
  function submit(e: FormEvent) {
    e.preventDefault();
    void run(async () => onSignedIn(await api<OperatorSession>('POST', '/login', { email, password, ...(code.trim() ? { code: code.trim() } : {}) })));
  }
  return (
    <CenterPanel title={t('operator.signInTitle')} language={language} onLanguage={onLanguage}>
      <p>{t('operator.signInIntro')}</p>
      <OperatorError error={error} />
      <form onSubmit={submit}>
        <Field label={t('login.email')}>
          {(id) => <input id={id} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label={t('login.password')}>
          {(id) => <input id={id} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
        <Field label={t('login.code')} hint={t('operator.codeHint')}>
          {(id) => <input id={id} inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />}
        </Field>
        <button type="submit" disabled={busy}>
          {t('login.signIn')}
        </button>
      </form>
    </CenterPanel>
  );
}
