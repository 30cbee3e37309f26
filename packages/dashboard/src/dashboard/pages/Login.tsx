import { type FormEvent, useEffect, useState } from 'react';
import { api, ApiProblem } from '../api.ts';
import type { Session } from '../types.ts';
import { ErrorNotice } from '../ui.tsx';

export function Login({ onSignedIn, expired }: { onSignedIn: (s: Session) => void; expired: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    document.title = 'Sign in · Caisse dashboard';
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api<Session>('POST', '/login', { email, password }));
    } catch (err) {
      if (err instanceof ApiProblem && err.code === 'login_locked' && err.retryAfter) {
        setError(new Error(`Too many failed sign-ins. Try again in ${Math.ceil(err.retryAfter / 60)} minute(s).`));
      } else setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="center-page">
      <main className="panel" aria-labelledby="signin-title">
        <p className="brand">Caisse</p>
        <h1 id="signin-title">Sign in to your dashboard</h1>
        {expired && (
          <div className="notice info" role="status">
            Your session ended. Sign in again to continue.
          </div>
        )}
        <ErrorNotice error={error} />
        <form onSubmit={submit} noValidate={false}>
          <div className="field">
            <label htmlFor="email">E-mail address</label>
            <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="password">Password</label>
            <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          </div>
          <button type="submit" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </main>
    </div>
  );
}
