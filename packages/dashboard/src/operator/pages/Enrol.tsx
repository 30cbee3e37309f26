import type { Language } from '@caisse/intl';
import { useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api } from '../../dashboard/api.ts';
import { CenterPanel, useSubmit } from '../../dashboard/pages/Login.tsx';
import { SecretField } from '../../dashboard/ui.tsx';
import { Field, OperatorError } from '../shared.tsx';
import type { OperatorSession, TotpEnrolment } from '../types.ts';

/** The first sign-in: nothing opens before an authenticator app is enrolled. */
export function Enrol({ onDone, language, onLanguage }: { onDone: (s: OperatorSession) => void; language: Language; onLanguage: (l: Language) => void }) {
  const { t } = useI18n();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');
  const { busy, error, run } = useSubmit();
  return (
    <CenterPanel title={t('operator.enrolTitle')} language={language} onLanguage={onLanguage}>
      <p>{t('operator.enrolIntro')}</p>
      <OperatorError error={error} />
      {enrolment === null ? (
        <button type="button" disabled={busy} onClick={() => void run(async () => setEnrolment(await api<TotpEnrolment>('POST', '/totp', {})))}>
          {t('operator.enrolStart')}
        </button>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => onDone(await api<OperatorSession>('POST', '/totp/confirm', { code: code.trim() })));
          }}
        >
          <img className="qr-code" src={enrolment.qrCode} alt={t('account.qrAlt')} width={200} height={200} />
          <SecretField label={t('operator.enrolSecret')} value={enrolment.secret} hint={t('operator.enrolSecretHint')} />
          <SecretField label={t('operator.enrolUri')} value={enrolment.uri} />
          <Field label={t('login.code')}>
            {(id) => <input id={id} inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />}
          </Field>
          <button type="submit" disabled={busy}>
            {t('operator.enrolConfirm')}
          </button>
        </form>
      )}
    </CenterPanel>
  );
}
