import { useState } from 'react';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { api } from '../api.ts';
import { Link } from '../router.tsx';
import type { Customer, List, Mode } from '../types.ts';
import { ErrorNotice, PageTitle, TableWrap, useLoad } from '../ui.tsx';

/** Every text of the Customers pages, in one place (for a translation to replace). */
const TEXT = {
  title: 'Customers',
  intro:
    'People who registered through your API key, were made by your test helpers, or tried to pay one of your payments. A customer has one Caisse account for every shop; you see what they paid you, never their wallet.',
  masked: 'Phone numbers show their last digits only.',
  loading: 'Loading customers…',
  tableLabel: 'Customers',
  caption: 'Customers, newest first',
  phone: 'Phone number',
  firstPayment: 'First payment',
  lastPayment: 'Last payment',
  payments: 'Payments',
  volume: 'Paid to you',
  created: 'Account created',
  empty: 'No customers yet. A customer appears here once they register through your API key, are made by your test helpers, or try to pay one of your payments.',
  loadMore: 'Load more',
  allCustomers: '← All customers',
  customer: 'Customer',
  customerId: 'Customer id',
  allPayments: 'All payments',
  detailLoading: 'Looking for the customer…',
  notFound: (pages: number) => `This customer is not among your ${pages * 100} newest customers, or is not one of yours.`,
  none: '—',
};

const PAGE_SIZE = 20;
/** How far the detail page looks (the dashboard API lists customers; it has no lookup by id). */
const SEARCH_PAGES = 10;

function queryOf(limit: number, startingAfter?: string) {
  const q = new URLSearchParams({ limit: String(limit) });
  if (startingAfter) q.set('startingAfter', startingAfter);
  return q.toString();
}

/** "5 000 XAF", one line per currency; a dash when nothing was paid. */
function Volume({ volume }: { volume: Customer['volume'] }) {
  if (volume.length === 0) return <span className="hint">{TEXT.none}</span>;
  return (
    <>
      {volume.map((v) => (
        <div key={v.currency}>{formatMoney(v.amount, v.currency)}</div>
      ))}
    </>
  );
}

export function Customers({ mode }: { mode: Mode }) {
  const first = useLoad(() => api<List<Customer>>('GET', `/${mode}/customers?${queryOf(PAGE_SIZE)}`), mode);
  const [more, setMore] = useState<{ key: string; rows: Customer[]; hasMore: boolean } | null>(null);
  const [moreError, setMoreError] = useState<unknown>(null);

  const extra = more?.key === mode ? more : null;
  const rows = [...(first.data?.data ?? []), ...(extra?.rows ?? [])];
  const hasMore = extra ? extra.hasMore : (first.data?.hasMore ?? false);

  async function loadMore() {
    const last = rows[rows.length - 1];
    if (!last) return;
    setMoreError(null);
    try {
      const page = await api<List<Customer>>('GET', `/${mode}/customers?${queryOf(PAGE_SIZE, last.id)}`);
      setMore({ key: mode, rows: [...(extra?.rows ?? []), ...page.data], hasMore: page.hasMore });
    } catch (err) {
      setMoreError(err);
    }
  }

  return (
    <>
      <PageTitle title={TEXT.title}>{TEXT.title}</PageTitle>
      <p>{TEXT.intro}</p>
      <p className="hint">{TEXT.masked}</p>
      <ErrorNotice error={first.error} />
      {first.loading && !first.data ? (
        <p role="status">{TEXT.loading}</p>
      ) : (
        <TableWrap label={TEXT.tableLabel}>
          <table>
            <caption className="visually-hidden">{TEXT.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{TEXT.phone}</th>
                <th scope="col">{TEXT.firstPayment}</th>
                <th scope="col">{TEXT.lastPayment}</th>
                <th scope="col" className="num">
                  {TEXT.payments}
                </th>
                <th scope="col" className="num">
                  {TEXT.volume}
                </th>
                <th scope="col">{TEXT.created}</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && (
                <tr>
                  <td colSpan={6} className="empty">
                    {TEXT.empty}
                  </td>
                </tr>
              )}
              {rows.map((c) => (
                <tr key={c.id}>
                  <th scope="row">
                    <Link to={`/dashboard/${mode}/customers/${c.id}`} className="mono">
                      {c.phoneNumber}
                    </Link>
                  </th>
                  <td>{formatDateTime(c.firstPaymentAt)}</td>
                  <td>{formatDateTime(c.lastPaymentAt)}</td>
                  <td className="num">{c.payments}</td>
                  <td className="num">
                    <Volume volume={c.volume} />
                  </td>
                  <td>{formatDateTime(c.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <ErrorNotice error={moreError} />
      {hasMore && (
        <button type="button" className="secondary" onClick={() => void loadMore()}>
          {TEXT.loadMore}
        </button>
      )}
    </>
  );
}

/** The customer's row of the list, found by paging through it (newest first). */
async function findCustomer(mode: Mode, id: string): Promise<Customer | null> {
  let after: string | undefined;
  for (let i = 0; i < SEARCH_PAGES; i++) {
    const page = await api<List<Customer>>('GET', `/${mode}/customers?${queryOf(100, after)}`);
    const found = page.data.find((c) => c.id === id);
    if (found) return found;
    after = page.data[page.data.length - 1]?.id;
    if (!page.hasMore || after === undefined) return null;
  }
  return null;
}

export function CustomerDetail({ mode, id }: { mode: Mode; id: string }) {
  const loaded = useLoad(() => findCustomer(mode, id), `${mode}/${id}`);
  const back = (
    <p>
      <Link to={`/dashboard/${mode}/customers`}>{TEXT.allCustomers}</Link>
    </p>
  );
  const c = loaded.data;
  if (loaded.error || c === null) {
    return (
      <>
        {back}
        <PageTitle title={TEXT.customer}>{TEXT.customer}</PageTitle>
        <ErrorNotice error={loaded.error} />
        {c === null && <div className="notice info">{TEXT.notFound(SEARCH_PAGES)}</div>}
      </>
    );
  }
  if (!c) return <p role="status">{TEXT.detailLoading}</p>;
  return (
    <>
      {back}
      <PageTitle title={`${TEXT.customer} ${c.phoneNumber}`}>
        {TEXT.customer} <span className="mono">{c.phoneNumber}</span>
      </PageTitle>
      <p className="hint">{TEXT.masked}</p>
      <section className="card" aria-label={TEXT.customer}>
        <dl className="summary">
          <dt>{TEXT.customerId}</dt>
          <dd className="mono">{c.id}</dd>
          <dt>{TEXT.phone}</dt>
          <dd className="mono">{c.phoneNumber}</dd>
          <dt>{TEXT.payments}</dt>
          <dd>{c.payments}</dd>
          <dt>{TEXT.volume}</dt>
          <dd>
            <Volume volume={c.volume} />
          </dd>
          <dt>{TEXT.firstPayment}</dt>
          <dd>{formatDateTime(c.firstPaymentAt)}</dd>
          <dt>{TEXT.lastPayment}</dt>
          <dd>{formatDateTime(c.lastPaymentAt)}</dd>
          <dt>{TEXT.created}</dt>
          <dd>{formatDateTime(c.createdAt)}</dd>
        </dl>
        <p>
          <Link to={`/dashboard/${mode}/payments`}>{TEXT.allPayments}</Link>
        </p>
      </section>
    </>
  );
}
