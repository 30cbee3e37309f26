import { type FormEvent, useState } from 'react';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { api } from '../api.ts';
import { PagedTable, usePages } from '../paging.tsx';
import { Link, navigate } from '../router.tsx';
import { BALANCE_TRANSACTION_TYPES, type BalanceTransaction, type Balance as BalanceView, type List, type Mode } from '../types.ts';
import { Badge, ErrorNotice, PageTitle, TableWrap, useLoad } from '../ui.tsx';

/** Every text of the Balance page, in one place (for a translation to replace). */
const TEXT = {
  title: 'Balance',
  intro: (mode: Mode) =>
    `Your ${mode} money per currency. A payment's net (amount less the fee) is pending until its settlement date, then available: payouts take from what is available.`,
  perCurrency: 'Balance per currency',
  currency: 'Currency',
  available: 'Available',
  pending: 'Pending',
  noMoney: (mode: Mode) => `No ${mode} money yet: the balance grows as payments succeed.`,
  payOut: 'Pay out',
  loadingBalance: 'Loading the balance…',
  statement: 'Statement',
  statementIntro: 'Every movement of your money, newest first, with the balance right after it (available and pending together).',
  filterLabel: 'Filter the statement',
  type: 'Type',
  anyType: 'Any type',
  types: {
    charge: 'Payment',
    fee: 'Fee',
    refund: 'Refund',
    payout: 'Payout',
    payout_reversal: 'Payout returned',
    adjustment: 'Adjustment',
  } as Record<string, string>,
  from: 'From',
  to: 'To',
  periodHint: 'Whole days in UTC, as in the CSV file.',
  apply: 'Apply filters',
  clear: 'Clear',
  download: 'Download CSV',
  downloadHint: 'The CSV file holds every line of the chosen period and type, oldest first, amounts in the currency’s units: it opens in any spreadsheet.',
  tableLabel: 'Balance transactions',
  caption: 'Balance transactions, newest first',
  date: 'Date',
  amount: 'Amount',
  balanceAfter: 'Balance after',
  status: 'Status',
  availableOn: 'Available on',
  source: 'Source',
  statuses: { pending: 'pending', available: 'available' } as Record<string, string>,
  empty: 'No balance transactions match. Payments, their fees, refunds and payouts appear here.',
  loading: 'Loading the statement…',
  loadMore: 'Load more',
};

interface Filters {
  type: string;
  from: string;
  to: string;
}

/** The statement's query string: type and period (dates: whole UTC days, as the API reads them). */
function queryOf(filters: Filters, extra: Record<string, string> = {}) {
  const q = new URLSearchParams(extra);
  if (filters.type) q.set('type', filters.type);
  if (filters.from) q.set('from', filters.from);
  if (filters.to) q.set('to', filters.to);
  return q.toString();
}

export function Balance({ mode, search }: { mode: Mode; search: string }) {
  const balance = useLoad(() => api<BalanceView>('GET', `/${mode}/balance`), mode);
  return (
    <>
      <PageTitle title={TEXT.title}>{TEXT.title}</PageTitle>
      <p>{TEXT.intro(mode)}</p>
      <ErrorNotice error={balance.error} />
      {!balance.data ? (
        balance.loading && <p role="status">{TEXT.loadingBalance}</p>
      ) : balance.data.balances.length === 0 ? (
        <div className="card">
          <p className="big-number">0</p>
          <p className="hint">{TEXT.noMoney(mode)}</p>
        </div>
      ) : (
        <TableWrap label={TEXT.perCurrency}>
          <table>
            <thead>
              <tr>
                <th scope="col">{TEXT.currency}</th>
                <th scope="col" className="num">
                  {TEXT.available}
                </th>
                <th scope="col" className="num">
                  {TEXT.pending}
                </th>
              </tr>
            </thead>
            <tbody>
              {balance.data.balances.map((b) => (
                <tr key={b.currency}>
                  <th scope="row">{b.currency}</th>
                  <td className="num big-number">{formatMoney(b.available, b.currency)}</td>
                  <td className="num">{formatMoney(b.pending, b.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      {balance.data && balance.data.balances.length > 0 && (
        <p>
          <Link to={`/dashboard/${mode}/payouts`} className="button secondary">
            {TEXT.payOut}
          </Link>
        </p>
      )}
      <Statement mode={mode} search={search} />
    </>
  );
}

function Statement({ mode, search }: { mode: Mode; search: string }) {
  const params = new URLSearchParams(search);
  const filters: Filters = { type: params.get('type') ?? '', from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const [draft, setDraft] = useState(filters);
  const key = `${mode}?${queryOf(filters)}`;
  const pages = usePages(
    (startingAfter) => api<List<BalanceTransaction>>('GET', `/${mode}/balance/transactions?${queryOf(filters, { limit: '20', ...(startingAfter ? { startingAfter } : {}) })}`),
    key,
  );
  const csv = `/dashboard/api/${mode}/balance/transactions.csv${queryOf(filters) ? `?${queryOf(filters)}` : ''}`;

  function apply(e: FormEvent) {
    e.preventDefault();
    const q = queryOf(draft);
    navigate(`/dashboard/${mode}/balance${q ? `?${q}` : ''}`);
  }

  return (
    <section aria-labelledby="statement-title">
      <h2 id="statement-title">{TEXT.statement}</h2>
      <p className="hint">{TEXT.statementIntro}</p>
      <form className="card" onSubmit={apply} aria-label={TEXT.filterLabel}>
        <div className="form-row">
          <div className="field">
            <label htmlFor="st-type">{TEXT.type}</label>
            <select id="st-type" value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.target.value })}>
              <option value="">{TEXT.anyType}</option>
              {BALANCE_TRANSACTION_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TEXT.types[t]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="st-from">{TEXT.from}</label>
            <input id="st-from" type="date" value={draft.from} aria-describedby="st-period-hint" onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="st-to">{TEXT.to}</label>
            <input id="st-to" type="date" value={draft.to} aria-describedby="st-period-hint" onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
          </div>
          <div className="actions" style={{ marginTop: 0 }}>
            <button type="submit">{TEXT.apply}</button>
            {(filters.type || filters.from || filters.to) && (
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setDraft({ type: '', from: '', to: '' });
                  navigate(`/dashboard/${mode}/balance`);
                }}
              >
                {TEXT.clear}
              </button>
            )}
          </div>
        </div>
        <p className="hint" id="st-period-hint">
          {TEXT.periodHint}
        </p>
        <div className="actions">
          {/* A plain link: the browser downloads the file with the session cookie (a GET needs no CSRF token). */}
          <a className="button secondary" href={csv} download aria-describedby="st-download-hint">
            {TEXT.download}
          </a>
          <span className="hint" id="st-download-hint">
            {TEXT.downloadHint}
          </span>
        </div>
      </form>
      <PagedTable
        pages={pages}
        label={TEXT.tableLabel}
        caption={TEXT.caption}
        columns={[
          { label: TEXT.date },
          { label: TEXT.type },
          { label: TEXT.amount, num: true },
          { label: TEXT.balanceAfter, num: true },
          { label: TEXT.status },
          { label: TEXT.availableOn },
          { label: TEXT.source },
        ]}
        text={{ loading: TEXT.loading, empty: TEXT.empty, loadMore: TEXT.loadMore }}
        row={(t) => (
          <tr key={t.id}>
            <td>{formatDateTime(t.createdAt)}</td>
            <td>{TEXT.types[t.type] ?? t.type}</td>
            <td className="num">{formatMoney(t.amount, t.currency)}</td>
            <td className="num">{formatMoney(t.balanceAfter, t.currency)}</td>
            <td>
              <Badge value={t.status} label={TEXT.statuses[t.status]} />
            </td>
            <td>{formatDateTime(t.availableOn)}</td>
            <td>
              <Source mode={mode} id={t.source} />
            </td>
          </tr>
        )}
      />
    </section>
  );
}

/** What caused a line: a payment or a payout links to its page; a refund shows its id. */
function Source({ mode, id }: { mode: Mode; id: string | null }) {
  if (!id) return <span className="hint">—</span>;
  const page = id.startsWith('pi_') ? 'payments' : id.startsWith('po_') ? 'payouts' : null;
  if (!page) return <span className="mono">{id}</span>;
  return (
    <Link to={`/dashboard/${mode}/${page}/${id}`} className="mono">
      {id}
    </Link>
  );
}
