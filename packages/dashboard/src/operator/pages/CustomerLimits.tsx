import { useState } from 'react';
import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import { api } from '../../dashboard/api.ts';
import { useSubmit } from '../../dashboard/pages/Login.tsx';
import { PageTitle, StatusNotice } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { Field, Loading, OperatorError, type PageProps, Table, useModeText } from '../shared.tsx';
import type { CustomerLimitsList } from '../types.ts';

type Limits = CustomerLimitsList['data'][number]['limits'];
const NAMES = ['balance', 'topup_day', 'topup_month', 'payment'] as const;
const LABELS: Record<(typeof NAMES)[number], MessageId> = {
  balance: 'operator.limit.balance',
  topup_day: 'operator.limit.topupDay',
  topup_month: 'operator.limit.topupMonth',
  payment: 'operator.limit.payment',
};

/** The four caps' column headings, in the table's order. */
export const limitHeads = (t: (id: MessageId) => string) => NAMES.map((n) => t(LABELS[n]));

/** The four caps of a tier as table cells: an amount, or "no cap". */
export function LimitCells({ limits, currency }: { limits: Limits; currency: string }) {
  const { t, money } = useI18n();
  return (
    <>
      {NAMES.map((n) => (
        <td key={n}>{limits[n] === null ? t('operator.noCap') : money(limits[n], currency)}</td>
      ))}
    </>
  );
}

/**
 * Customer limits (decision 0042): the caps per mode, tier and currency, and, with
 * `customers:limits`, a form that sets a tier's four caps at once (an empty one is no cap).
 */
export function CustomerLimitsPage({ can }: PageProps) {
  const { t, dateTime } = useI18n();
  const modeText = useModeText();
  const loaded = useOperatorQuery<CustomerLimitsList>(['customer-limits'], '/customer-limits');
  const [mode, setMode] = useState<'test' | 'live'>('live');
  const [tier, setTier] = useState('0');
  const [currency, setCurrency] = useState('XAF');
  const [caps, setCaps] = useState<Record<(typeof NAMES)[number], string>>({ balance: '', topup_day: '', topup_month: '', payment: '' });
  const [done, setDone] = useState(false);
  const { busy, error, run } = useSubmit();
  /** Fills the form with a row's caps, to change them. */
  const edit = (row: CustomerLimitsList['data'][number]) => {
    setMode(row.livemode ? 'live' : 'test');
    setTier(String(row.tier));
    setCurrency(row.currency);
    setCaps({
      balance: row.limits.balance ?? '',
      topup_day: row.limits.topup_day ?? '',
      topup_month: row.limits.topup_month ?? '',
      payment: row.limits.payment ?? '',
    });
    setDone(false);
  };
  return (
    <>
      <PageTitle title={t('operator.limitsTitle')}>{t('operator.limitsTitle')}</PageTitle>
      <p>{t('operator.limitsIntro')}</p>
      <OperatorError error={loaded.error} />
      <Loading shown={loaded.loading && !loaded.data} />
      {loaded.data && loaded.data.data.length === 0 ? <p>{t('operator.noLimits')}</p> : null}
      {loaded.data && loaded.data.data.length > 0 ? (
        <Table
          label={t('operator.limitsTitle')}
          head={[
            t('operator.mode'),
            t('operator.tier'),
            t('operator.currency'),
            ...limitHeads(t),
            t('operator.updated'),
            ...(can('customers:limits') ? [t('operator.change')] : []),
          ]}
        >
          {loaded.data.data.map((l) => (
            <tr key={`${String(l.livemode)}-${l.tier}-${l.currency}`}>
              <td>{modeText(l.livemode)}</td>
              <td>{l.tier}</td>
              <td>{l.currency}</td>
              <LimitCells limits={l.limits} currency={l.currency} />
              <td>{t('operator.updatedBy', { date: dateTime(l.updatedAt), who: l.updatedBy })}</td>
              {can('customers:limits') ? (
                <td>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={t('operator.changeLimits', { mode: modeText(l.livemode), tier: l.tier, currency: l.currency })}
                    onClick={() => edit(l)}
                  >
                    {t('operator.change')}
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </Table>
      ) : null}
      {can('customers:limits') ? (
        <form
          aria-labelledby="limits-form-title"
          onSubmit={(e) => {
            e.preventDefault();
            setDone(false);
            void run(async () => {
              const limits = Object.fromEntries(NAMES.map((n) => [n, caps[n].trim() === '' ? null : caps[n].trim()]));
              await api('PUT', '/customer-limits', { mode, tier: Number(tier), currency: currency.trim().toUpperCase(), limits });
              setDone(true);
              loaded.reload();
            });
          }}
        >
          <h2 id="limits-form-title">{t('operator.limitsSetTitle')}</h2>
          {done ? <StatusNotice>{t('operator.limitsSaved')}</StatusNotice> : null}
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
            <Field label={t('operator.tier')} hint={t('operator.tierHint')}>
              {(id) => <input id={id} type="number" min={0} max={9} required value={tier} onChange={(e) => setTier(e.target.value)} />}
            </Field>
            <Field label={t('operator.currency')}>
              {(id) => <input id={id} required pattern="[A-Za-z]{3}" maxLength={3} value={currency} onChange={(e) => setCurrency(e.target.value)} />}
            </Field>
          </div>
          <div className="form-row">
            {NAMES.map((n) => (
              <Field key={n} label={t(LABELS[n])} hint={t('operator.capHint')}>
                {(id) => <input id={id} inputMode="decimal" value={caps[n]} onChange={(e) => setCaps({ ...caps, [n]: e.target.value })} />}
              </Field>
            ))}
          </div>
          <button type="submit" disabled={busy}>
            {t('operator.limitsSave')}
          </button>
        </form>
      ) : null}
    </>
  );
}
