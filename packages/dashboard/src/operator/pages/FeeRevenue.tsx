import { useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { Link } from '../../dashboard/router.tsx';
import { CsvDownload } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { Field, Loading, OperatorError, Table, useModeText } from '../shared.tsx';
import type { Fees } from '../types.ts';

interface Filters {
  mode: string;
  currency: string;
  from: string;
  to: string;
}

/** The filters as the API's query: empty ones left out (the server's defaults apply). */
function queryOf(f: Filters): string {
  const q = new URLSearchParams();
  if (f.mode) q.set('mode', f.mode);
  if (f.currency.trim()) q.set('currency', f.currency.trim().toUpperCase());
  if (f.from) q.set('from', f.from);
  if (f.to) q.set('to', f.to);
  return q.toString();
}

/** Fee revenue per UTC day and merchant from the ledger, its totals, and the same as a CSV file. */
export function FeeRevenue() {
  const { t, money } = useI18n();
  const modeText = useModeText();
  const [form, setForm] = useState<Filters>({ mode: '', currency: '', from: '', to: '' });
  const [applied, setApplied] = useState<Filters>(form);
  const query = queryOf(applied);
  const loaded = useOperatorQuery<Fees>(['fees', query], `/money/fees${query ? `?${query}` : ''}`);
  return (
    <section aria-labelledby="fees-title">
      <h2 id="fees-title">{t('operator.feesTitle')}</h2>
      <p>{t('operator.feesIntro')}</p>
      <form
        className="form-row"
        aria-label={t('operator.feesFilters')}
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(form);
        }}
      >
        <Field label={t('operator.mode')}>
          {(id) => (
            <select id={id} value={form.mode} onChange={(e) => setForm({ ...form, mode: e.target.value })}>
              <option value="">{t('operator.bothModes')}</option>
              <option value="live">{t('dash.liveMode')}</option>
              <option value="test">{t('dash.testMode')}</option>
            </select>
          )}
        </Field>
        <Field label={t('operator.currency')}>
          {(id) => <input id={id} pattern="[A-Za-z]{3}" maxLength={3} value={form.currency} onChange={(e) => setForm({ ...form, currency: e.target.value })} />}
        </Field>
        <Field label={t('operator.from')}>
          {(id) => <input id={id} type="date" value={form.from} onChange={(e) => setForm({ ...form, from: e.target.value })} />}
        </Field>
        <Field label={t('operator.to')}>
          {(id) => <input id={id} type="date" value={form.to} onChange={(e) => setForm({ ...form, to: e.target.value })} />}
        </Field>
        <div className="actions">
          <button type="submit">{t('operator.feesShow')}</button>
        </div>
      </form>
      <OperatorError error={loaded.error} />
      <Loading shown={loaded.loading && !loaded.data} />
      {loaded.data && loaded.data.data.length === 0 ? <p>{t('operator.noFees')}</p> : null}
      {loaded.data && loaded.data.totals.length > 0 ? (
        <ul aria-label={t('operator.feesTotals')}>
          {loaded.data.totals.map((s) => (
            <li key={`${s.mode}-${s.currency}`}>{t('operator.feesTotal', { mode: modeText(s.mode), amount: money(s.amount, s.currency) })}</li>
          ))}
        </ul>
      ) : null}
      {loaded.data && loaded.data.data.length > 0 ? (
        <Table
          label={t('operator.feesTable')}
          head={[t('operator.day'), t('operator.mode'), t('operator.merchant'), t('operator.amount'), t('operator.transfers')]}
        >
          {loaded.data.data.map((d) => (
            <tr key={`${d.day}-${d.mode}-${d.currency}-${d.merchantId}`}>
              <td>{d.day}</td>
              <td>{modeText(d.mode)}</td>
              <td>
                <Link to={`/operator/merchants/${encodeURIComponent(d.merchantId)}`}>{d.merchantId}</Link>
              </td>
              <td>{money(d.amount, d.currency)}</td>
              <td>{d.transfers}</td>
            </tr>
          ))}
        </Table>
      ) : null}
      <CsvDownload href={`/operator/api/money/fees.csv${query ? `?${query}` : ''}`} label={t('operator.feesCsv')} hint={t('operator.feesCsvHint')} />
    </section>
  );
}
