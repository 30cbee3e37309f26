import type { Language } from '@caisse/intl';
import { type FormEvent, useEffect, useState } from 'react';
import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import { ApiProblem } from '../api.ts';
import { useAcceptInvitation, useInvitation } from '../queries/team.ts';
import type { Session } from '../types.ts';
import { ErrorNotice, LanguageSwitch } from '../ui.tsx';
import { useRoleName } from './Team.tsx';

/** Why a link cannot be used, in words: each of the server's codes has its own message. */
const LINK_PROBLEMS: Record<string, MessageId> = {
  invitation_not_found: 'invitation.unknown',
  invitation_used: 'invitation.used',
  invitation_expired: 'invitation.expired',
  invitation_revoked: 'invitation.revoked',
};

/**
 * `/dashboard/invitations/<token>`: who invites to what, a password to choose, then signed in.
 * A link used, expired, revoked or unknown says so (and how to go on).
 */
export function AcceptInvitation({
  token,
  onSignedIn,
  language,
  onLanguage,
}: {
  token: string;
  onSignedIn: (s: Session) => void;
  language: Language;
  onLanguage: (l: Language) => void;
}) {
  const { t } = useI18n();
  const roleName = useRoleName();
  const invitation = useInvitation(token);
  const acceptInvitation = useAcceptInvitation(token);
  const preview = invitation.data ?? null;
  const [acceptProblem, setLinkProblem] = useState<unknown>(null);
  const linkProblem = acceptProblem ?? invitation.error;
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const docTitle = t('invitation.docTitle');

  useEffect(() => {
    document.title = docTitle;
  }, [docTitle]);

  async function accept(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (password !== confirm) {
      setError(new Error(t('invitation.mismatch')));
      return;
    }
    setBusy(true);
    try {
      onSignedIn(await acceptInvitation.mutateAsync({ password, language }));
    } catch (err) {
      if (err instanceof ApiProblem && LINK_PROBLEMS[err.code]) setLinkProblem(err);
      else setError(err);
    } finally {
      setBusy(false);
    }
  }

  const problemCode = linkProblem instanceof ApiProblem ? LINK_PROBLEMS[linkProblem.code] : undefined;
  return (
    <div className="center-page">
      <main className="panel" aria-labelledby="invitation-title">
        <div className="actions" style={{ marginTop: 0, justifyContent: 'space-between' }}>
          <p className="brand">Caisse</p>
          <LanguageSwitch value={language} onChange={onLanguage} />
        </div>
        <h1 id="invitation-title">{t('invitation.title')}</h1>
        {linkProblem ? (
          <>
            {problemCode ? (
              <div className="notice error" role="alert">
                {t(problemCode)}
              </div>
            ) : (
              <ErrorNotice error={linkProblem} />
            )}
            <p>
              <a href="/dashboard">{t('invitation.toSignIn')}</a>
            </p>
          </>
        ) : !preview ? (
          <p role="status">{t('invitation.loading')}</p>
        ) : (
          <>
            <p>{t('invitation.intro', { merchant: preview.merchant.name, role: roleName(preview.role), email: preview.email })}</p>
            <ErrorNotice error={error} />
            <form onSubmit={accept}>
              <input type="email" autoComplete="username" value={preview.email} readOnly hidden />
              <div className="field">
                <label htmlFor="new-password">{t('invitation.password')}</label>
                <input
                  id="new-password"
                  type="password"
                  autoComplete="new-password"
                  required
                  minLength={8}
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  aria-describedby="password-hint"
                />
                <p id="password-hint" className="hint">
                  {t('invitation.passwordHint')}
                </p>
              </div>
              <div className="field">
                <label htmlFor="confirm-password">{t('invitation.confirm')}</label>
                <input
                  id="confirm-password"
                  type="password"
                  autoComplete="new-password"
                  required
                  value={confirm}
                  onChange={(e) => setConfirm(e.target.value)}
                />
              </div>
              <button type="submit" disabled={busy}>
                {busy ? t('invitation.joining') : t('invitation.join')}
              </button>
            </form>
          </>
        )}
      </main>
    </div>
  );
}
