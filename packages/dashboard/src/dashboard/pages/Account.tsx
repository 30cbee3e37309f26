import { type FormEvent, useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import {
  useAccountSecurity,
  useAccountSessions,
  useChangePassword,
  useConfirmTotp,
  useDisableTotp,
  useNewRecoveryCodes,
  useRevokeOtherSessions,
  useRevokeSession,
  useStartTotp,
} from '../queries/account.ts';
import { NewPasswordField } from './Login.tsx';
import type { TotpEnrolment } from '../types.ts';
import { ConfirmButton, ErrorNotice, PageTitle, SecretField, StatusNotice, TableWrap } from '../ui.tsx';

/**
 * The signed-in user's own account: password change, two-factor sign-in (enrol with the QR code,
 * recovery codes shown once, regenerate, disable) and their sessions (revoke one, or all others).
 */
export function Account({ onSessionChanged }: { onSessionChanged: () => void }) {
  const { t } = useI18n();
  return (
    <>
      <PageTitle title={t('account.title')}>{t('account.title')}</PageTitle>
      <TwoFactor onSessionChanged={onSessionChanged} />
      <PasswordChange />
      <Sessions />
    </>
  );
}

/** A section's action: the error, or a short confirmation, of its last request. */
function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  async function run(work: () => Promise<string | null>) {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      setDone(await work());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, done, run };
}

function PasswordChange() {
  const { t } = useI18n();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const changePassword = useChangePassword();
  const { busy, error, done, run } = useAction();
  function submit(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      await changePassword.mutateAsync({ currentPassword: current, newPassword: next });
      setCurrent('');
      setNext('');
      return t('account.passwordChanged');
    });
  }
  return (
    <section aria-labelledby="password-title" className="card">
      <h2 id="password-title">{t('account.passwordTitle')}</h2>
      <ErrorNotice error={error} />
      {done && <StatusNotice>{done}</StatusNotice>}
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="current-password">{t('account.currentPassword')}</label>
          <input id="current-password" type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
        </div>
        <NewPasswordField label={t('account.newPassword')} value={next} onChange={setNext} />
        <button type="submit" disabled={busy}>
          {t('account.changePassword')}
        </button>
      </form>
    </section>
  );
}

/** The recovery codes, shown this once, with a copy button. */
function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  return (
    <div className="notice warning" role="region" aria-label={t('account.recoveryCodes')}>
      <p>
        <strong>{t('account.recoveryCodes')}</strong> {t('account.recoveryCodesOnce')}
      </p>
      <ul className="recovery-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          void navigator.clipboard?.writeText(codes.join('\n')).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        {copied ? t('dash.copied') : t('account.copyCodes')}
      </button>
    </div>
  );
}

function TwoFactor({ onSessionChanged }: { onSessionChanged: () => void }) {
  const { t, dateTime } = useI18n();
  const state = useAccountSecurity();
  const startTotp = useStartTotp();
  const confirmTotp = useConfirmTotp();
  const newCodes = useNewRecoveryCodes();
  const disableTotp = useDisableTotp();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [proofCode, setProofCode] = useState('');
  const [proofPassword, setProofPassword] = useState('');
  const { busy, error, done, run } = useAction();
  const proof = () => (proofCode.trim() !== '' ? { code: proofCode.trim() } : { password: proofPassword });

  function confirm(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      const answer = await confirmTotp.mutateAsync(code.trim());
      setCodes(answer.recoveryCodes);
      setEnrolment(null);
      setCode('');
      onSessionChanged();
      return t('account.totpOn');
    });
  }

  const s = state.data;
  return (
    <section aria-labelledby="totp-title" className="card">
      <h2 id="totp-title">{t('account.totpTitle')}</h2>
      <p>{t('account.totpIntro')}</p>
      <ErrorNotice error={error ?? state.error} />
      {done && <StatusNotice>{done}</StatusNotice>}
      {codes && <RecoveryCodes codes={codes} />}
      {s && !s.totpEnabled && !enrolment && (
        <button type="button" disabled={busy} onClick={() => void run(async () => (setEnrolment(await startTotp.mutateAsync()), null))}>
          {t('account.totpStart')}
        </button>
      )}
      {s && !s.totpEnabled && enrolment && (
        <form onSubmit={confirm}>
          <p>{t('account.totpScan')}</p>
          <img className="qr-code" src={enrolment.qrCode} alt={t('account.qrAlt')} width={200} height={200} />
          <SecretField label={t('account.setupKey')} value={enrolment.secret} hint={t('account.setupKeyHint')} />
          <div className="field">
            <label htmlFor="totp-code">{t('account.codeFromApp')}</label>
            <input
              id="totp-code"
              autoComplete="one-time-code"
              inputMode="numeric"
              pattern="[0-9 ]*"
              required
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </div>
          <button type="submit" disabled={busy}>
            {t('account.totpConfirm')}
          </button>
        </form>
      )}
      {s?.totpEnabled && (
        <>
          <p>
            <strong>{t('account.totpEnabledSince', { date: dateTime(s.totpEnabledAt) })}</strong> {t('account.recoveryLeft', { count: s.recoveryCodesLeft })}
          </p>
          <fieldset>
            <legend>{t('account.proofLegend')}</legend>
            <div className="field">
              <label htmlFor="proof-code">{t('account.codeFromApp')}</label>
              <input id="proof-code" autoComplete="one-time-code" value={proofCode} onChange={(e) => setProofCode(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="proof-password">{t('account.orPassword')}</label>
              <input
                id="proof-password"
                type="password"
                autoComplete="current-password"
                value={proofPassword}
                onChange={(e) => setProofPassword(e.target.value)}
              />
            </div>
          </fieldset>
          <div className="actions">
            <button
              type="button"
              className="secondary"
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  setCodes((await newCodes.mutateAsync(proof())).recoveryCodes);
                  return null;
                })
              }
            >
              {t('account.regenerate')}
            </button>
            <ConfirmButton
              label={t('account.totpDisable')}
              confirmLabel={t('account.totpDisableConfirm')}
              disabled={busy}
              onConfirm={() =>
                void run(async () => {
                  await disableTotp.mutateAsync(proof());
                  setCodes(null);
                  onSessionChanged();
                  return t('account.totpOff');
                })
              }
            />
          </div>
        </>
      )}
    </section>
  );
}

function Sessions() {
  const { t, dateTime } = useI18n();
  const list = useAccountSessions();
  const revokeSession = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const { busy, error, done, run } = useAction();
  const others = (list.data?.data ?? []).filter((s) => !s.current).length;
  return (
    <section aria-labelledby="sessions-title" className="card">
      <h2 id="sessions-title">{t('account.sessionsTitle')}</h2>
      <ErrorNotice error={error ?? list.error} />
      {done && <StatusNotice>{done}</StatusNotice>}
      <TableWrap label={t('account.sessionsList')}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('account.signedIn')}</th>
              <th scope="col">{t('account.lastSeen')}</th>
              <th scope="col">{t('account.address')}</th>
              <th scope="col">{t('account.browser')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('account.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(list.data?.data ?? []).map((s) => (
              <tr key={s.id}>
                <td>{dateTime(s.createdAt)}</td>
                <td>{dateTime(s.lastSeenAt)}</td>
                <td>{s.address ?? '—'}</td>
                <td className="hint">{s.userAgent ?? '—'}</td>
                <td>
                  {s.current ? (
                    <strong>{t('account.thisSession')}</strong>
                  ) : (
                    <button
                      type="button"
                      className="secondary"
                      disabled={busy}
                      aria-label={t('account.revokeNamed', { date: dateTime(s.createdAt) })}
                      onClick={() =>
                        void run(async () => {
                          await revokeSession.mutateAsync(s.id);
                          return t('account.revoked');
                        })
                      }
                    >
                      {t('account.revoke')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <div className="actions">
        <button
          type="button"
          className="secondary"
          disabled={busy || others === 0}
          onClick={() =>
            void run(async () => {
              const r = await revokeOthers.mutateAsync();
              return t('account.revokedOthers', { count: r.revoked });
            })
          }
        >
          {t('account.revokeOthers')}
        </button>
      </div>
    </section>
  );
}
