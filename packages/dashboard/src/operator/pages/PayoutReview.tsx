import { useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api } from '../../dashboard/api.ts';
import { useSubmit } from '../../dashboard/pages/Login.tsx';
import { Link } from '../../dashboard/router.tsx';
import { PageTitle, StatusNotice } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { Field, Loading, OperatorError, type PageProps, Table, useModeText } from '../shared.tsx';
import type { PayoutsInReview, PayoutThresholds } from '../types.ts';

type HeldPayout = PayoutsInReview['data'][number];

/**
 * Payout review (decision 0041): the thresholds per mode and currency, and the payouts held above
 * them, oldest first, to approve or reject. The operator who set a threshold cannot decide what it
 * holds: the server answers 403 `four_eyes_required`, worded here.
 */
export function PayoutReview({ can }: PageProps) {
  const { t } = useI18n();
  const held = useOperatorQuery<PayoutsInReview>(['payouts', 'review'], '/payouts/review');
  // Said above the list: the decided payout leaves it at the reload.
  const [notice, setNotice] = useState<string | null>(null);
  const decided = (id: string, approved: boolean) => {
    setNotice(approved ? t('operator.payoutApproved', { id }) : t('operator.payoutRejected', { id }));
    held.reload();
  };
  return (
    <>
      <PageTitle title={t('operator.payoutsTitle')}>{t('operator.payoutsTitle')}</PageTitle>
      <p>{t('operator.payoutsIntro')}</p>
      <Thresholds canSet={can('payouts:thresholds')} />
      <section aria-labelledby="held-title">
        <h2 id="held-title">{t('operator.heldTitle')}</h2>
        {notice ? <StatusNotice>{notice}</StatusNotice> : null}
        <OperatorError error={held.error} />
        <Loading shown={held.loading && !held.data} />
        {held.data && held.data.data.length === 0 ? <p>{t('operator.noHeld')}</p> : null}
        {held.data?.data.map((p) => (
          <HeldPayoutCard key={p.id} payout={p} onDecided={decided} />
        ))}
      </section>
    </>
  );
}

function Thresholds({ canSet }: { canSet: boolean }) {
  const { t, money, dateTime } = useI18n();
  const modeText = useModeText();
  const loaded = useOperatorQuery<PayoutThresholds>(['payouts', 'thresholds'], '/payouts/thresholds');
  const [changed, setChanged] = useState<PayoutThresholds | null>(null);
  const [mode, setMode] = useState<'test' | 'live'>('live');
  const [currency, setCurrency] = useState('XAF');
  const [amount, setAmount] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, run } = useSubmit();
  const list = changed ?? loaded.data;
  return (
    <section aria-labelledby="thresholds-title">
      <h2 id="thresholds-title">{t('operator.thresholdsTitle')}</h2>
      <OperatorError error={loaded.error} />
      {list && list.data.length === 0 ? <p>{t('operator.noThresholds')}</p> : null}
      {list && list.data.length > 0 ? (
        <Table
          label={t('operator.thresholdsTable')}
          head={[t('operator.mode'), t('operator.currency'), t('operator.threshold'), t('operator.setBy'), t('operator.setAt')]}
        >
          {list.data.map((th) => (
            <tr key={`${String(th.livemode)}-${th.currency}`}>
              <td>{modeText(th.livemode)}</td>
              <td>{th.currency}</td>
              <td>{money(th.amount, th.currency)}</td>
              <td>{th.setBy.email}</td>
              <td>{dateTime(th.setAt)}</td>
            </tr>
          ))}
        </Table>
      ) : null}
      {canSet ? (
        <form
          aria-labelledby="threshold-form-title"
          onSubmit={(e) => {
            e.preventDefault();
            setDone(false);
            void run(async () => {
              const trimmed = amount.trim();
              setChanged(
                await api<PayoutThresholds>('PUT', '/payouts/thresholds', {
                  mode,
                  currency: currency.trim().toUpperCase(),
                  amount: trimmed === '' ? null : trimmed,
                }),
              );
              setDone(true);
            });
          }}
        >
          <h3 id="threshold-form-title">{t('operator.thresholdSetTitle')}</h3>
          {done ? <StatusNotice>{t('operator.thresholdSaved')}</StatusNotice> : null}
          <OperatorError error={error} />
          <div className="form-row">
            <Field label={t('operator.mode')}>
              {(id) => (
                <select id={id} value={mode} onChange={(e) => setMode(e.target.value as 'test' | 'live')}>
                  <option value="live">{t('dash.liveMode')}</option>
                  <option value="test">{t('dash.testMode')}</option>
                </select>
              )}
            </Field>
            <Field label={t('operator.currency')}>
              {(id) => <input id={id} required pattern="[A-Za-z]{3}" maxLength={3} value={currency} onChange={(e) => setCurrency(e.target.value)} />}
            </Field>
            <Field label={t('operator.threshold')} hint={t('operator.thresholdHint')}>
              {(id) => <input id={id} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />}
            </Field>
          </div>
          <button type="submit" disabled={busy}>
            {t('operator.thresholdSave')}
          </button>
        </form>
      ) : null}
    </section>
  );
}

/** One held payout: what it is, and the two decisions (a rejection says why). */
function HeldPayoutCard({ payout: p, onDecided }: { payout: HeldPayout; onDecided: (id: string, approved: boolean) => void }) {
  const { t, money, dateTime } = useI18n();
  const modeText = useModeText();
  const [reason, setReason] = useState('');
  const { busy, error, run } = useSubmit();
  const titleId = `payout-${p.id}`;
  const decide = (decision: 'approve' | 'reject') =>
    void run(async () => {
      await api('POST', `/payouts/${encodeURIComponent(p.id)}/${decision}`, decision === 'reject' ? { reason: reason.trim() } : {});
      onDecided(p.id, decision === 'approve');
    });
  return (
    <section className="card" aria-labelledby={titleId}>
      <h3 id={titleId}>{t('operator.heldPayout', { amount: money(p.amount, p.currency), id: p.id })}</h3>
      <dl className="summary">
        <dt>{t('operator.merchant')}</dt>
        <dd>
          <Link to={`/operator/merchants/${encodeURIComponent(p.merchantId)}`}>{p.merchantId}</Link>
        </dd>
        <dt>{t('operator.mode')}</dt>
        <dd>{modeText(p.livemode)}</dd>
        <dt>{t('operator.destination')}</dt>
        <dd>
          {p.destination.provider} {p.destination.phoneNumber}
        </dd>
        <dt>{t('operator.created')}</dt>
        <dd>{dateTime(p.createdAt)}</dd>
      </dl>
      <OperatorError error={error} />
      <div className="actions">
        <button type="button" disabled={busy} onClick={() => decide('approve')}>
          {t('operator.payoutApprove')}
        </button>
      </div>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          decide('reject');
        }}
      >
        <Field label={t('operator.payoutRejectReason')}>
          {(fid) => <textarea id={fid} required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}
        </Field>
        <button type="submit" className="danger" disabled={busy}>
          {t('operator.payoutReject')}
        </button>
      </form>
    </section>
  );
}
