// The payment page's history: its attempts, refunds, events and webhook deliveries.
import { useI18n } from '../../shared/i18n.tsx';
import { Link } from '../router.tsx';
import type { Mode, PaymentAttempt, PaymentDetail, Refund } from '../types.ts';
import { Badge, TableWrap } from '../ui.tsx';
import { RECORD_METHODS } from './PaymentRefundForms.tsx';

type PaymentEvents = PaymentDetail['events'];

/** Each try at paying: method, masked number, the provider's reference and how it ended. */
export function Attempts({ attempts, providerName }: { attempts: PaymentAttempt[]; providerName: (provider: string) => string }) {
  const { t, dateTime } = useI18n();
  return (
    <section aria-labelledby="attempts-title">
      <h2 id="attempts-title">{t('payment.attemptsTitle')}</h2>
      <TableWrap label={t('payment.attemptsTitle')}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('payment.attemptId')}</th>
              <th scope="col">{t('payment.method')}</th>
              <th scope="col">{t('payment.phoneNumber')}</th>
              <th scope="col">{t('payment.providerReference')}</th>
              <th scope="col">{t('payment.connector')}</th>
              <th scope="col">{t('deliveries.status')}</th>
              <th scope="col">{t('payment.created')}</th>
            </tr>
          </thead>
          <tbody>
            {attempts.map((a) => (
              <tr key={a.id}>
                <td className="mono">{a.id}</td>
                <td>{providerName(a.provider)}</td>
                <td className="mono">{a.phoneNumber ?? '—'}</td>
                <td className="mono">{a.providerReference ?? '—'}</td>
                <td>
                  <ConnectorCell connector={a.connector} account={a.providerAccount} />
                </td>
                <td>
                  <Badge value={a.status} /> {a.failureCode ? <code>{a.failureCode}</code> : null}
                </td>
                <td>{dateTime(a.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </section>
  );
}

/** How Caisse reached the provider: the connector and its account, or a dash (a wallet refund). */
function ConnectorCell({ connector, account }: { connector: string | undefined; account: string | undefined }) {
  if (connector === undefined) return <>—</>;
  return (
    <>
      <code>{connector}</code> <span className="mono">{account ?? ''}</span>
    </>
  );
}

/** The refunds and their state: a refund to mobile money is PENDING until the provider answers. */
export function Refunds({ refunds }: { refunds: Refund[] }) {
  const { t, money, dateTime } = useI18n();
  return (
    <section aria-labelledby="refunds-title">
      <h2 id="refunds-title">{t('payment.refundsTitle')}</h2>
      <TableWrap label={t('payment.refundsTitle')}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('payment.refundId')}</th>
              <th scope="col" className="num">
                {t('payment.refundAmountColumn')}
              </th>
              <th scope="col">{t('deliveries.status')}</th>
              <th scope="col">{t('payment.refundReason')}</th>
              <th scope="col">{t('payment.connector')}</th>
              <th scope="col">{t('payment.created')}</th>
            </tr>
          </thead>
          <tbody>
            {refunds.map((r) => (
              <tr key={r.id}>
                <td className="mono">{r.id}</td>
                <td className="num">{money(r.amount, r.currency)}</td>
                <td>
                  <Badge value={r.status} /> {r.failureCode ? <code>{r.failureCode}</code> : null}
                  {r.recordedOutside && (
                    <span className="hint">
                      {' '}
                      {t('payment.recordedOutside', { method: t(RECORD_METHODS[r.recordedOutside.method]) })}
                      {r.recordedOutside.reference ? ` · ${t('payment.recordedReference', { reference: r.recordedOutside.reference })}` : ''}
                    </span>
                  )}
                </td>
                <td>{r.reason === 'late_payment' ? t('payment.latePayment') : (r.reason ?? '—')}</td>
                <td>
                  <ConnectorCell connector={r.connector} account={r.providerAccount} />
                </td>
                <td>{dateTime(r.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </section>
  );
}

/** The payment's events, each with a way to send it again to the webhooks (`onResend`, for a user who may). */
export function Timeline({ mode, events, onResend }: { mode: Mode; events: PaymentEvents; onResend: ((event: PaymentEvents[number]) => void) | undefined }) {
  const { t, rich, dateTime } = useI18n();
  return (
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">{t('payment.events')}</h2>
      {events.length === 0 ? (
        <p className="hint">{t('payment.noEvents')}</p>
      ) : (
        <ol className="timeline">
          {events.map((e) => (
            <li key={e.id}>
              <strong>{e.type}</strong> <span className="hint">{dateTime(e.createdAt)}</span>
              <div className="actions" style={{ marginTop: '0.25rem' }}>
                <Link to={`/dashboard/${mode}/events/${e.id}`} className="mono">
                  {e.id}
                </Link>
                {onResend && (
                  <button type="button" className="secondary" onClick={() => onResend(e)}>
                    {rich('payment.resend', { type: e.type, hidden: (chunks) => <span className="visually-hidden">{chunks}</span> })}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Where the payment's events went: each webhook delivery, its state and its last answer. */
export function Deliveries({ mode, deliveries, events }: { mode: Mode; deliveries: PaymentDetail['deliveries']; events: PaymentEvents }) {
  const { t, rich, dateTime } = useI18n();
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">{t('payment.deliveries')}</h2>
      {deliveries.length === 0 ? (
        <p className="hint">{rich('payment.noDeliveries', { link: (chunks) => <Link to={`/dashboard/${mode}/webhooks`}>{chunks}</Link> })}</p>
      ) : (
        <TableWrap label={t('payment.deliveriesLabel')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('deliveries.event')}</th>
                <th scope="col">{t('deliveries.endpoint')}</th>
                <th scope="col">{t('deliveries.status')}</th>
                <th scope="col" className="num">
                  {t('deliveries.attempts')}
                </th>
                <th scope="col">{t('deliveries.lastAnswer')}</th>
                <th scope="col">{t('deliveries.lastAttempt')}</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={d.id}>
                  <td>
                    <Link to={`/dashboard/${mode}/events/${d.eventId}`}>{events.find((e) => e.id === d.eventId)?.type ?? d.eventId}</Link>
                  </td>
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
                  <td>{dateTime(d.lastAttemptAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}
