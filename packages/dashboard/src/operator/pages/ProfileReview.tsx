import { useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api } from '../../dashboard/api.ts';
import { useSubmit } from '../../dashboard/pages/Login.tsx';
import { useOperatorQuery } from '../queries.ts';
import { Field, OperatorError } from '../shared.tsx';
import type { MerchantProfile } from '../types.ts';

/** A merchant's business profile, its identity document, and the approval or rejection of a submitted one. */
export function ProfileReview({ id }: { id: string }) {
  const { t } = useI18n();
  const loaded = useOperatorQuery<MerchantProfile>(['profile', id], `/merchants/${encodeURIComponent(id)}/profile`);
  const [changed, setChanged] = useState<MerchantProfile | null>(null);
  const [reason, setReason] = useState('');
  const { busy, error, run } = useSubmit();
  const p = changed ?? loaded.data;
  if (!p) return <OperatorError error={loaded.error} />;
  const review = (decision: 'approve' | 'reject') =>
    void run(async () => {
      setChanged(
        await api<MerchantProfile>('POST', `/merchants/${encodeURIComponent(id)}/profile/${decision}`, decision === 'reject' ? { reason: reason.trim() } : {}),
      );
      setReason('');
    });
  const rows: [string, string][] = [
    [t('operator.legalName'), p.details.legalName],
    [t('operator.tradeName'), p.details.tradeName],
    [t('operator.registrationNumber'), p.details.registrationNumber],
    [t('operator.taxNumber', { name: p.taxNumberName }), p.details.taxNumber],
    [t('operator.address'), p.details.address],
    [t('operator.activity'), p.details.activity],
    [t('operator.website'), p.details.website],
    [t('operator.ownerName'), p.details.ownerName],
    [
      t('operator.emailCheck'),
      !p.emailVerified
        ? t('operator.emailNotVerified')
        : p.emailVerifiedVia === 'smtp'
          ? t('operator.emailViaSmtp')
          : p.emailVerifiedVia === 'outbox'
            ? t('operator.emailViaOutbox')
            : t('operator.emailViaUnknown'),
    ],
  ];
  return (
    <section aria-labelledby="profile-title">
      <h2 id="profile-title">{t('operator.profileTitle')}</h2>
      <p>
        <span className={`badge ${p.state === 'approved' ? 'ok' : p.state === 'rejected' ? 'bad' : ''}`}>{t('operator.profileState', { state: p.state })}</span>
        {p.rejectionReason ? ` ${t('operator.rejectedBecause', { reason: p.rejectionReason })}` : null}
      </p>
      <dl className="summary">
        {rows.map(([label, value]) => (
          <div key={label} style={{ display: 'contents' }}>
            <dt>{label}</dt>
            <dd>{value || '—'}</dd>
          </div>
        ))}
      </dl>
      {p.document ? (
        <p>
          <a href={`/operator/api/merchants/${encodeURIComponent(id)}/profile/document`} target="_blank" rel="noreferrer">
            {t('operator.openDocument', { type: p.document.contentType })}
          </a>
        </p>
      ) : null}
      {p.state === 'submitted' ? (
        <>
          <OperatorError error={error} />
          <div className="actions">
            <button type="button" disabled={busy} onClick={() => review('approve')}>
              {t('operator.approve')}
            </button>
          </div>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              review('reject');
            }}
          >
            <Field label={t('operator.rejectReason')}>
              {(fid) => <textarea id={fid} required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}
            </Field>
            <button type="submit" className="danger" disabled={busy}>
              {t('operator.reject')}
            </button>
          </form>
        </>
      ) : null}
    </section>
  );
}
