import { type FormEvent, useState } from 'react';
import { formatDateTime, formatMoney, startOfLocalDay } from '../../shared/format.ts';
import { api } from '../api.ts';
import { Link, navigate } from '../router.tsx';
import { type List, type Mode, PAYMENT_STATUSES, type Payment } from '../types.ts';
import { Badge, ErrorNotice, PageTitle, TableWrap, useLoad } from '../ui.tsx';

const DAY_MS = 24 * 3600 * 1000;

/** The list's query string from the filter form: status, and a date range as whole local days. */
function queryOf(filters: { status: string; from: string; to: string }, startingAfter?: string) {
  const q = new URLSearchParams({ limit: '20' });
  if (filters.status) q.set('status', filters.status);
  if (filters.from) q.set('createdGte', startOfLocalDay(filters.from).toISOString());
  if (filters.to) q.set('createdLt', new Date(startOfLocalDay(filters.to).getTime() + DAY_MS).toISOString());
  if (startingAfter) q.set('startingAfter', startingAfter);
  return q.toString();
}

export function Payments({ mode, search }: { mode: Mode; search: string }) {
  const params = new URLSearchParams(search);
  const filters = { status: params.get('status') ?? '', from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const [draft, setDraft] = useState(filters);
  const [more, setMore] = useState<{ key: string; rows: Payment[]; hasMore: boolean } | null>(null);
  const [moreError, setMoreError] = useState<unknown>(null);
  const key = `${mode}?${queryOf(filters)}`;
  const first = useLoad(() => api<List<Payment>>('GET', `/${mode}/payments?${queryOf(filters)}`), key);

  const extra = more?.key === key ? more : null;
  const rows = [...(first.data?.data ?? []), ...(extra?.rows ?? [])];
  const hasMore = extra ? extra.hasMore : (first.data?.hasMore ?? false);

  function apply(e: FormEvent) {
    e.preventDefault();
    const q = new URLSearchParams();
    if (draft.status) q.set('status', draft.status);
    if (draft.from) q.set('from', draft.from);
    if (draft.to) q.set('to', draft.to);
    navigate(`/dashboard/${mode}/payments${q.size ? `?${q}` : ''}`);
  }

  async function loadMore() {
    const last = rows[rows.length - 1];
    if (!last) return;
    try {
      const page = await api<List<Payment>>('GET', `/${mode}/payments?${queryOf(filters, last.id)}`);
      setMore({ key, rows: [...(extra?.rows ?? []), ...page.data], hasMore: page.hasMore });
    } catch (err) {
      setMoreError(err);
    }
  }

  return (
    <>
      <PageTitle title="Payments">Payments</PageTitle>
      <form className="card" onSubmit={apply} aria-label="Filter payments">
        <div className="form-row">
          <div className="field">
            <label htmlFor="f-status">Status</label>
            <select id="f-status" value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
              <option value="">Any status</option>
              {PAYMENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s.replace(/_/g, ' ').toLowerCase()}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-from">Created from</label>
            <input id="f-from" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="f-to">Created to</label>
            <input id="f-to" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
          </div>
          <div className="actions" style={{ marginTop: 0 }}>
            <button type="submit">Apply filters</button>
            {(filters.status || filters.from || filters.to) && (
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setDraft({ status: '', from: '', to: '' });
                  navigate(`/dashboard/${mode}/payments`);
                }}
              >
                Clear
              </button>
            )}
          </div>
        </div>
      </form>
      <ErrorNotice error={first.error} />
      {first.loading && !first.data ? (
        <p role="status">Loading payments…</p>
      ) : (
        <TableWrap label="Payments">
          <table>
            <caption className="visually-hidden">Payments, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">Description</th>
                <th scope="col">Payment</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && (
                <tr>
                  <td colSpan={5} className="empty">
                    No payments match. Payments appear here when your server creates them with <code>POST /gateway</code>.
                  </td>
                </tr>
              )}
              {rows.map((p) => (
                <tr key={p.id}>
                  <td>{formatDateTime(p.createdAt)}</td>
                  <td className="num">{formatMoney(p.amount, p.currency)}</td>
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
      )}
      <ErrorNotice error={moreError} />
      {hasMore && (
        <button type="button" className="secondary" onClick={() => void loadMore()}>
          Load more
        </button>
      )}
    </>
  );
}
