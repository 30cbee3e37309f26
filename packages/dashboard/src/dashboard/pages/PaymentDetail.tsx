import { useState } from 'react';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { api } from '../api.ts';
import { Link } from '../router.tsx';
import type { Mode, Payment, PaymentDetail as Detail } from '../types.ts';
import { Badge, ConfirmButton, ErrorNotice, PageTitle, StatusNotice, TableWrap, useLoad } from '../ui.tsx';

export function PaymentDetail({ mode, id }: { mode: Mode; id: string }) {
  const loaded = useLoad(() => api<Detail>('GET', `/${mode}/payments/${encodeURIComponent(id)}`), `${mode}/${id}`);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');

  async function act(what: () => Promise<unknown>, message: string) {
    setError(null);
    setDone('');
    try {
      await what();
      setDone(message);
      loaded.reload();
    } catch (err) {
      setError(err);
    }
  }

  const back = (
    <p>
      <Link to={`/dashboard/${mode}/payments`}>← All payments</Link>
    </p>
  );
  if (loaded.error) {
    return (
      <>
        {back}
        <PageTitle title="Payment">Payment</PageTitle>
        <ErrorNotice error={loaded.error} />
      </>
    );
  }
  const detail = loaded.data;
  if (!detail) return <p role="status">Loading the payment…</p>;
  const p: Payment = detail.payment;
  const open = p.status === 'PENDING' && new Date(p.expiresAt) > new Date();

  return (
    <>
      {back}
      <PageTitle title={`Payment ${p.id}`}>
        {formatMoney(p.amount, p.currency)} <Badge value={p.status} />
      </PageTitle>
      {done && <StatusNotice>{done}</StatusNotice>}
      <ErrorNotice error={error} />
      <section className="card" aria-labelledby="summary-title">
        <h2 id="summary-title" style={{ marginTop: 0 }}>
          Summary
        </h2>
        <dl className="summary">
          <dt>Payment id</dt>
          <dd className="mono">{p.id}</dd>
          <dt>Description</dt>
          <dd>{p.description ?? '—'}</dd>
          <dt>Customer</dt>
          <dd>
            {detail.customer ? (
              <>
                <Link to={`/dashboard/${mode}/customers/${detail.customer.id}`} className="mono">
                  {detail.customer.phoneNumber}
                </Link>
                <span className="hint mono">{detail.customer.id}</span>
              </>
            ) : (
              '—'
            )}
          </dd>
          <dt>Created</dt>
          <dd>{formatDateTime(p.createdAt)}</dd>
          <dt>Expires</dt>
          <dd>{formatDateTime(p.expiresAt)}</dd>
          <dt>Last change</dt>
          <dd>{formatDateTime(p.updatedAt)}</dd>
          <dt>Charge attempts</dt>
          <dd>{p.attempts}</dd>
          {p.lastError && (
            <>
              <dt>Last error</dt>
              <dd>
                <code>{p.lastError.code}</code> {p.lastError.message}
              </dd>
            </>
          )}
          <dt>Refunded</dt>
          <dd>{formatMoney(p.amountRefunded, p.currency)}</dd>
          <dt>Metadata</dt>
          <dd>
            {Object.keys(p.metadata).length === 0 ? (
              '—'
            ) : (
              <code>
                {Object.entries(p.metadata)
                  .map(([k, v]) => `${k}: ${String(v)}`)
                  .join(', ')}
              </code>
            )}
          </dd>
        </dl>
        {open && (
          <div className="actions">
            <ConfirmButton label="Cancel payment" confirmLabel="Yes, cancel it" onConfirm={() => void act(() => api('POST', `/${mode}/payments/${p.id}/cancel`), 'The payment was canceled.')} />
          </div>
        )}
      </section>

      <section aria-labelledby="timeline-title">
        <h2 id="timeline-title">Events</h2>
        {detail.events.length === 0 ? (
          <p className="hint">No events yet: they are recorded when the payment succeeds, fails, expires, is canceled or refunded.</p>
        ) : (
          <ol className="timeline">
            {detail.events.map((e) => (
              <li key={e.id}>
                <strong>{e.type}</strong> <span className="hint">{formatDateTime(e.createdAt)}</span>
                <div className="actions" style={{ marginTop: '0.25rem' }}>
                  <code>{e.id}</code>
                  <button type="button" className="secondary" onClick={() => void act(() => api('POST', `/${mode}/events/${e.id}/resend`, {}), `Event ${e.type} queued for delivery again.`)}>
                    Resend <span className="visually-hidden">{e.type}</span>
                  </button>
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Webhook deliveries</h2>
        {detail.deliveries.length === 0 ? (
          <p className="hint">
            No deliveries. <Link to={`/dashboard/${mode}/webhooks`}>Add a webhook endpoint</Link> to receive this payment&apos;s events.
          </p>
        ) : (
          <TableWrap label="Webhook deliveries of this payment">
            <table>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Endpoint</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Attempts
                  </th>
                  <th scope="col">Last answer</th>
                  <th scope="col">Last attempt</th>
                </tr>
              </thead>
              <tbody>
                {detail.deliveries.map((d) => (
                  <tr key={d.id}>
                    <td>{detail.events.find((e) => e.id === d.eventId)?.type ?? d.eventId}</td>
                    <td>
                      <Link to={`/dashboard/${mode}/webhooks/${d.endpointId}`} className="mono">
                        {d.endpointId}
                      </Link>
                    </td>
                    <td>
                      <Badge value={d.status} />
                    </td>
                    <td className="num">{d.attemptCount}</td>
                    <td>{d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? '—')}</td>
                    <td>{formatDateTime(d.lastAttemptAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>
    </>
  );
}
