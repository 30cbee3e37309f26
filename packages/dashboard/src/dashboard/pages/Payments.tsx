import { type FormEvent, type ReactNode, useState } from 'react';
import { localInstant, startOfLocalDay } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { DateField } from '../date-field.tsx';
import { Link, navigate } from '../router.tsx';
import { type Mode, PAYMENT_STATUSES, type Payment } from '../types.ts';
import { LoadMore } from '../paging.tsx';
import { usePayments } from '../queries/payments.ts';
import { Badge, CsvDownload, ErrorNotice, PageTitle, TableWrap, useStatusText } from '../ui.tsx';

const DAY_MS = 24 * 3600 * 1000;

/** The filters' query string: status, and a date range as whole local days (the list's and the CSV's). */
function filterQuery(filters: { status: string; from: string; to: string }) {
  const q = new URLSearchParams();
  if (filters.status) q.set('status', filters.status);
  if (filters.from) q.set('createdGte', localInstant(startOfLocalDay(filters.from)));
  if (filters.to) q.set('createdLt', localInstant(new Date(startOfLocalDay(filters.to).getTime() + DAY_MS)));
  return q;
}

/** The list's query string: the filters, a page of 20 (the hook adds the cursor). */
function queryOf(filters: { status: string; from: string; to: string }) {
  const q = filterQuery(filters);
  q.set('limit', '20');
  return q.toString();
}

export function Payments({ mode, search }: { mode: Mode; search: string }) {
  const { t, rich } = useI18n();
  const statusText = useStatusText();
  const params = new URLSearchParams(search);
  const filters = { status: params.get('status') ?? '', from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const [draft, setDraft] = useState(filters);
  const csvQuery = filterQuery(filters).toString();
  const csv = `/dashboard/api/${mode}/payments.csv${csvQuery ? `?${csvQuery}` : ''}`;
  const pages = usePayments(mode, queryOf(filters));

  function apply(e: FormEvent) {
    e.preventDefault();
    const q = new URLSearchParams();
    if (draft.status) q.set('status', draft.status);
    if (draft.from) q.set('from', draft.from);
    if (draft.to) q.set('to', draft.to);
    navigate(`/dashboard/${mode}/payments${q.size ? `?${q}` : ''}`);
  }

  return (
    <>
      <PageTitle title={t('payments.title')}>{t('payments.title')}</PageTitle>
      <form className="card" onSubmit={apply} aria-label={t('payments.filter')}>
        <div className="form-row">
          <div className="field">
            <label htmlFor="f-status">{t('payments.status')}</label>
            <select id="f-status" value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
              <option value="">{t('payments.anyStatus')}</option>
              {PAYMENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {statusText(s)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-from">{t('payments.from')}</label>
            <DateField id="f-from" value={draft.from} onChange={(from) => setDraft({ ...draft, from })} />
          </div>
          <div className="field">
            <label htmlFor="f-to">{t('payments.to')}</label>
            <DateField id="f-to" value={draft.to} onChange={(to) => setDraft({ ...draft, to })} />
          </div>
          <div className="actions" style={{ marginTop: 0 }}>
            <button type="submit">{t('payments.apply')}</button>
            {(filters.status || filters.from || filters.to) && (
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setDraft({ status: '', from: '', to: '' });
                  navigate(`/dashboard/${mode}/payments`);
                }}
              >
                {t('payments.clear')}
              </button>
            )}
          </div>
        </div>
        <CsvDownload href={csv} label={t('payments.download')} hint={t('payments.downloadHint')} />
      </form>
      <ErrorNotice error={pages.error} />
      {pages.loading ? (
        <p role="status">{t('payments.loading')}</p>
      ) : (
        <PaymentsTable mode={mode} rows={pages.rows} caption={t('payments.caption')} empty={rich('payments.empty')} />
      )}
      <LoadMore pages={pages} label={t('dash.loadMore')} />
    </>
  );
}

/** Payments as a table: date, amount, status, description; each row a link to its payment (the list, the search and Home). */
export function PaymentsTable({ mode, rows, caption, empty }: { mode: Mode; rows: Payment[]; caption: string; empty: ReactNode }) {
  const { t, money, dateTime } = useI18n();
  return (
    <TableWrap label={t('payments.title')}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('payments.created')}</th>
            <th scope="col" className="num">
              {t('payments.amount')}
            </th>
            <th scope="col">{t('payments.status')}</th>
            <th scope="col">{t('payments.description')}</th>
            <th scope="col">{t('payments.payment')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={5} className="empty">
                {empty}
              </td>
            </tr>
          )}
          {rows.map((p) => (
            // The id's link covers the whole row (row-link): a click anywhere on it opens the payment.
            <tr key={p.id} className="row-link">
              <td>{dateTime(p.createdAt)}</td>
              <td className="num">{money(p.amount, p.currency)}</td>
              <td>
                <Badge value={p.status} />
              </td>
              <td>{p.description ?? <span className="hint">—</span>}</td>
              <td>
                <Link to={`/dashboard/${mode}/payments/${p.id}`} className="mono">
                  {p.id}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
