import { useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api } from '../../dashboard/api.ts';
import { useSubmit } from '../../dashboard/pages/Login.tsx';
import { PageTitle, StatusNotice } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { Field, kindText, OperatorError, type PageProps, Table } from '../shared.tsx';
import type { OperatorMerchant } from '../types.ts';
import { MerchantMethods, MerchantTerms } from './MerchantTerms.tsx';
import { ProfileReview } from './ProfileReview.tsx';

/** A merchant: settings, keys, balances, the freeze and the business profile's review. */
export function MerchantPage({ id = '', can }: PageProps) {
  const { t, money, dateTime } = useI18n();
  const loaded = useOperatorQuery<OperatorMerchant>(['merchant', id], `/merchants/${encodeURIComponent(id)}`);
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  // The freeze's answer is the merchant as it is now: shown at once, no second request.
  const [changed, setChanged] = useState<OperatorMerchant | null>(null);
  const { busy, error, run } = useSubmit();
  const m = changed ?? loaded.data;
  if (!m) return loaded.error ? <OperatorError error={loaded.error} /> : <p role="status">{t('dash.loading')}</p>;
  const fees = m.fees.bps === null ? t('operator.default') : `${m.fees.bps / 100} %`;
  const act = (path: 'freeze' | 'unfreeze') =>
    void run(async () => {
      setChanged(await api<OperatorMerchant>('POST', `/merchants/${encodeURIComponent(id)}/${path}`, { reason: reason.trim() }));
      setReason('');
      setDone(path === 'freeze' ? t('operator.frozenDone') : t('operator.unfrozenDone'));
    });
  return (
    <>
      <PageTitle title={m.name}>{m.name}</PageTitle>
      <p>
        <span className={`badge ${m.frozen ? 'bad' : 'ok'}`}>{m.frozen ? t('operator.frozen') : t('operator.active')}</span>{' '}
        {m.frozen ? t('operator.frozenSince', { date: dateTime(m.frozen.at), reason: m.frozen.reason }) : null}
      </p>
      <dl className="summary">
        <dt>{t('operator.id')}</dt>
        <dd className="mono">{m.id}</dd>
        <dt>{t('login.email')}</dt>
        <dd>{m.email ?? '—'}</dd>
        <dt>{t('operator.country')}</dt>
        <dd>{m.country}</dd>
        <dt>{t('operator.fees')}</dt>
        <dd>{fees}</dd>
        <dt>{t('operator.settlementDelay')}</dt>
        <dd>{m.settlementDelayDays === null ? t('operator.default') : t('operator.days', { days: m.settlementDelayDays })}</dd>
        <dt>{t('operator.terms.reservePercent')}</dt>
        <dd>{m.reserve === null ? '—' : t('operator.reserveTerms', { percent: m.reserve.bps / 100, days: m.reserve.days })}</dd>
        <dt>{t('operator.keys')}</dt>
        <dd>{t('operator.keysCount', { test: m.keys.test, live: m.keys.live })}</dd>
      </dl>
      <h2>{t('operator.balances')}</h2>
      {m.balances.length === 0 ? (
        <p>{t('operator.noBalances')}</p>
      ) : (
        <Table label={t('operator.balances')} head={[t('operator.mode'), t('operator.account'), t('operator.amount')]}>
          {m.balances.map((b) => (
            <tr key={`${b.mode}-${b.kind}-${b.currency}`}>
              <td>{b.mode === 'live' ? t('dash.liveMode') : t('dash.testMode')}</td>
              <td>{kindText(t, b.kind)}</td>
              <td>{money(b.amount, b.currency)}</td>
            </tr>
          ))}
        </Table>
      )}
      {can('merchants:freeze') ? (
        <section aria-labelledby="freeze-title">
          <h2 id="freeze-title">{m.frozen ? t('operator.unfreezeTitle') : t('operator.freezeTitle')}</h2>
          <p>{m.frozen ? t('operator.unfreezeIntro') : t('operator.freezeIntro')}</p>
          {done ? <StatusNotice>{done}</StatusNotice> : null}
          <OperatorError error={error} />
          <form
            onSubmit={(e) => {
              e.preventDefault();
              act(m.frozen ? 'unfreeze' : 'freeze');
            }}
          >
            <Field label={t('operator.reason')}>
              {(fid) => <textarea id={fid} required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}
            </Field>
            <button type="submit" className={m.frozen ? undefined : 'danger'} disabled={busy}>
              {m.frozen ? t('operator.unfreeze') : t('operator.freeze')}
            </button>
          </form>
        </section>
      ) : null}
      {can('merchants:terms') ? <MerchantTerms merchant={m} onChanged={setChanged} /> : null}
      {can('merchants:methods') ? <MerchantMethods merchant={m} onChanged={setChanged} /> : null}
      {can('merchants:review') ? <ProfileReview id={id} /> : null}
    </>
  );
}
