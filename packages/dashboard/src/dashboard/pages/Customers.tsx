import { useState } from 'react';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { api, ApiProblem } from '../api.ts';
import { Link } from '../router.tsx';
import type { Customer, CustomerDetail as Detail, List, Mode } from '../types.ts';
import { Badge, ErrorNotice, PageTitle, TableWrap, useLoad } from '../ui.tsx';

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
  detailLoading: 'Loading the customer…',
  notFound: 'This customer is not one of yours: they never registered through your API key, were not made by your test helpers, and never tried to pay you.',
  none: '—',
  attemptsTitle: 'Payment attempts',
  attemptsIntro: 'Each time this customer tried to pay one of your payments, newest first (the latest 50).',
  attemptsLabel: 'Payment attempts of this customer',
  attemptsCaption: 'Payment attempts of this customer at your shop, newest first',
  noAttempts: 'This customer has not tried to pay you yet.',
  payment: 'Payment',
  amount: 'Amount',
  status: 'Status',
  failure: 'Failure reason',
  date: 'Date',
  paymentFailures: { insufficient_funds: 'Not enough in the wallet' } as Record<string, string>,
  topupsTitle: 'Top-ups',
  topupsIntro: "Money this customer added to their wallet by mobile money from your checkout, newest first (the latest 50). You see the amount and the outcome, never the wallet's balance.",
  topupsLabel: 'Top-ups of this customer',
  topupsCaption: 'Top-ups this customer started through your checkout, newest first',
  noTopups: 'No top-ups started through your checkout.',
  provider: 'Provider',
  providers: { mtn_momo: 'MTN MoMo' } as Record<string, string>,
  topupFailures: {
    APPROVAL_REJECTED: 'Declined on the phone',
    TIMEOUT: 'Not approved in time',
    AMOUNT_MISMATCH: 'The provider took another amount',
    INTERNAL_PROCESSING_ERROR: "The provider's error",
  } as Record<string, string>,
};

const PAGE_SIZE = 20;

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

/** A payment's failure code in words (the code itself stays beside it, for support). */
function FailureText({ code, words }: { code: string | null; words: Record<string, string> }) {
  if (code === null) return <span className="hint">{TEXT.none}</span>;
  return (
    <>
      {words[code] ?? code}
      {words[code] !== undefined && <span className="hint mono">{code}</span>}
    </>
  );
}

export function CustomerDetail({ mode, id }: { mode: Mode; id: string }) {
  const loaded = useLoad(() => api<Detail>('GET', `/${mode}/customers/${encodeURIComponent(id)}`), `${mode}/${id}`);
  const back = (
    <p>
      <Link to={`/dashboard/${mode}/customers`}>{TEXT.allCustomers}</Link>
    </p>
  );
  if (loaded.error) {
    const notFound = loaded.error instanceof ApiProblem && loaded.error.status === 404;
    return (
      <>
        {back}
        <PageTitle title={TEXT.customer}>{TEXT.customer}</PageTitle>
        {notFound ? <div className="notice info">{TEXT.notFound}</div> : <ErrorNotice error={loaded.error} />}
      </>
    );
  }
  const detail = loaded.data;
  if (!detail) return <p role="status">{TEXT.detailLoading}</p>;
  const c = detail.customer;
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
      </section>

      <section aria-labelledby="attempts-title">
        <h2 id="attempts-title">{TEXT.attemptsTitle}</h2>
        <p className="hint">{TEXT.attemptsIntro}</p>
        <TableWrap label={TEXT.attemptsLabel}>
          <table>
            <caption className="visually-hidden">{TEXT.attemptsCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{TEXT.payment}</th>
                <th scope="col" className="num">
                  {TEXT.amount}
                </th>
                <th scope="col">{TEXT.status}</th>
                <th scope="col">{TEXT.failure}</th>
                <th scope="col">{TEXT.date}</th>
              </tr>
            </thead>
            <tbody>
              {detail.payments.length === 0 && (
                <tr>
                  <td colSpan={5} className="empty">
                    {TEXT.noAttempts}
                  </td>
                </tr>
              )}
              {detail.payments.map((p) => (
                <tr key={p.id}>
                  <th scope="row">
                    <Link to={`/dashboard/${mode}/payments/${p.intentId}`} className="mono">
                      {p.intentId}
                    </Link>
                  </th>
                  <td className="num">{formatMoney(p.amount, p.currency)}</td>
                  <td>
                    <Badge value={p.status} />
                  </td>
                  <td>
                    <FailureText code={p.failureCode} words={TEXT.paymentFailures} />
                  </td>
                  <td>{formatDateTime(p.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </section>

      <section aria-labelledby="topups-title">
        <h2 id="topups-title">{TEXT.topupsTitle}</h2>
        <p className="hint">{TEXT.topupsIntro}</p>
        <TableWrap label={TEXT.topupsLabel}>
          <table>
            <caption className="visually-hidden">{TEXT.topupsCaption}</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  {TEXT.amount}
                </th>
                <th scope="col">{TEXT.provider}</th>
                <th scope="col">{TEXT.status}</th>
                <th scope="col">{TEXT.failure}</th>
                <th scope="col">{TEXT.date}</th>
              </tr>
            </thead>
            <tbody>
              {detail.topups.length === 0 && (
                <tr>
                  <td colSpan={5} className="empty">
                    {TEXT.noTopups}
                  </td>
                </tr>
              )}
              {detail.topups.map((t) => (
                <tr key={t.id}>
                  <th scope="row" className="num">
                    {formatMoney(t.amount, t.currency)}
                  </th>
                  <td>{TEXT.providers[t.provider] ?? t.provider}</td>
                  <td>
                    <Badge value={t.status} />
                  </td>
                  <td>
                    <FailureText code={t.failureReason} words={TEXT.topupFailures} />
                  </td>
                  <td>{formatDateTime(t.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </section>
      <p>
        <Link to={`/dashboard/${mode}/payments`}>{TEXT.allPayments}</Link>
      </p>
    </>
  );
}
