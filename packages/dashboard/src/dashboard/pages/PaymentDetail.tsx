import { type CSSProperties, type FormEvent, useState } from 'react';
import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import { useCan } from '../permissions.tsx';
import { useResendEvent } from '../queries/events.ts';
import { useCancelPayment, usePayment, useRecordRefund, useRefundPayment } from '../queries/payments.ts';
import { useProviderName } from '../queries/providers.ts';
import { Link } from '../router.tsx';
import { FAILURE_TEXTS } from './Customers.tsx';
import { type Mode, type Payment, type PaymentAttempt, type RecordedRefundBody, type Refund } from '../types.ts';
import { Badge, ConfirmButton, ErrorNotice, PageTitle, StatusNotice, TableWrap } from '../ui.tsx';

export function PaymentDetail({ mode, id }: { mode: Mode; id: string }) {
  const { t, rich, money, dateTime } = useI18n();
  const can = useCan();
  const loaded = usePayment(mode, id);
  const providerName = useProviderName(mode);
  const refund = useRefundPayment(mode);
  const record = useRecordRefund(mode);
  const cancel = useCancelPayment(mode);
  const resend = useResendEvent(mode);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');

  async function act(what: () => Promise<unknown>, message: string) {
    setError(null);
    setDone('');
    try {
      await what();
      setDone(message);
    } catch (err) {
      setError(err);
    }
  }

  const back = (
    <p>
      <Link to={`/dashboard/${mode}/payments`}>{t('payment.all')}</Link>
    </p>
  );
  if (loaded.error) {
    return (
      <>
        {back}
        <PageTitle title={t('payment.title')}>{t('payment.title')}</PageTitle>
        <ErrorNotice error={loaded.error} />
      </>
    );
  }
  const detail = loaded.data;
  if (!detail) return <p role="status">{t('payment.loading')}</p>;
  const p: Payment = detail.payment;
  const open = p.status === 'PENDING' && new Date(p.expiresAt) > new Date();
  const refundable = p.status === 'SUCCEEDED' || p.status === 'PARTIALLY_REFUNDED';

  return (
    <>
      {back}
      <PageTitle title={t('payment.docTitle', { id: p.id })}>
        {money(p.amount, p.currency)} <Badge value={p.status} />
      </PageTitle>
      {done && <StatusNotice>{done}</StatusNotice>}
      <ErrorNotice error={error} />
      <section className="card" aria-labelledby="summary-title">
        <h2 id="summary-title" style={{ marginTop: 0 }}>
          {t('payment.summary')}
        </h2>
        <dl className="summary">
          <dt>{t('payment.id')}</dt>
          <dd className="mono">{p.id}</dd>
          <dt>{t('payment.description')}</dt>
          <dd>{p.description ?? '—'}</dd>
          <dt>{t('payment.customer')}</dt>
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
          <dt>{t('payment.created')}</dt>
          <dd>{dateTime(p.createdAt)}</dd>
          <dt>{t('payment.expires')}</dt>
          <dd>{dateTime(p.expiresAt)}</dd>
          <dt>{t('payment.updated')}</dt>
          <dd>{dateTime(p.updatedAt)}</dd>
          <dt>{t('payment.attempts')}</dt>
          <dd>{Array.isArray(p.attempts) ? p.attempts.length : p.attempts}</dd>
          {p.paymentMethod && (
            <>
              <dt>{t('payment.method')}</dt>
              <dd>
                {p.paymentMethod.type === 'card'
                  ? t('payment.methodCard')
                  : p.paymentMethod.provider
                    ? providerName(p.paymentMethod.provider)
                    : t('payment.methodWallet')}
                {p.paymentMethod.phoneNumber ? <span className="mono"> {p.paymentMethod.phoneNumber}</span> : null}
              </dd>
            </>
          )}
          {p.fee != null && (
            <>
              <dt>{t('payment.fee')}</dt>
              <dd>{money(p.fee, p.currency)}</dd>
            </>
          )}
          {p.net != null && (
            <>
              <dt>{t('payment.net')}</dt>
              <dd>{money(p.net, p.currency)}</dd>
            </>
          )}
          {p.lastError && (
            <>
              <dt>{t('payment.lastError')}</dt>
              <dd>
                {FAILURE_TEXTS[p.lastError.code] && <>{t(FAILURE_TEXTS[p.lastError.code] as MessageId)} </>}
                <code>{p.lastError.code}</code>
              </dd>
            </>
          )}
          <dt>{t('payment.refunded')}</dt>
          <dd>{money(p.amountRefunded, p.currency)}</dd>
          <dt>{t('payment.metadata')}</dt>
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
        {open && can('payments:write') && (
          <div className="actions">
            <ConfirmButton
              label={t('payment.cancel')}
              confirmLabel={t('payment.cancelConfirm')}
              onConfirm={() => void act(() => cancel.mutateAsync(p.id), t('payment.canceled'))}
            />
          </div>
        )}
        {refundable && can('payments:write') && !detail.refundRecordable && (
          <RefundForm
            payment={p}
            onRefund={(amount) =>
              act(
                () => refund.mutateAsync({ id: p.id, amount }),
                p.paymentMethod?.type === 'mobile_money' ? t('payment.refundStarted') : t('payment.refundDone'),
              )
            }
          />
        )}
      </section>

      {refundable && can('payments:write') && detail.refundRecordable && (
        <RecordRefundForm payment={p} onRecord={(body) => act(() => record.mutateAsync({ id: p.id, body }), t('payment.recordDone'))} />
      )}

      {Array.isArray(p.attempts) && p.attempts.length > 0 && <Attempts attempts={p.attempts} providerName={providerName} />}
      {detail.refunds && detail.refunds.length > 0 && <Refunds refunds={detail.refunds} />}

      <section aria-labelledby="timeline-title">
        <h2 id="timeline-title">{t('payment.events')}</h2>
        {detail.events.length === 0 ? (
          <p className="hint">{t('payment.noEvents')}</p>
        ) : (
          <ol className="timeline">
            {detail.events.map((e) => (
              <li key={e.id}>
                <strong>{e.type}</strong> <span className="hint">{dateTime(e.createdAt)}</span>
                <div className="actions" style={{ marginTop: '0.25rem' }}>
                  <Link to={`/dashboard/${mode}/events/${e.id}`} className="mono">
                    {e.id}
                  </Link>
                  {can('webhooks:write') && (
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => void act(() => resend.mutateAsync({ id: e.id }), t('payment.resent', { type: e.type }))}
                    >
                      {rich('payment.resend', { type: e.type, hidden: (chunks) => <span className="visually-hidden">{chunks}</span> })}
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">{t('payment.deliveries')}</h2>
        {detail.deliveries.length === 0 ? (
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
                {detail.deliveries.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <Link to={`/dashboard/${mode}/events/${d.eventId}`}>{detail.events.find((e) => e.id === d.eventId)?.type ?? d.eventId}</Link>
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
    </>
  );
}

/** Each try at paying: method, masked number, the provider's reference and how it ended. */
function Attempts({ attempts, providerName }: { attempts: PaymentAttempt[]; providerName: (provider: string) => string }) {
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

/** How Caisse reached the provider (contract section 15): the connector and its account, or a dash (a wallet refund). */
function ConnectorCell({ connector, account }: { connector: string | undefined; account: string | undefined }) {
  if (connector === undefined) return <>—</>;
  return (
    <>
      <code>{connector}</code> <span className="mono">{account ?? ''}</span>
    </>
  );
}

/** The refunds and their state: a refund to mobile money is PENDING until the provider answers. */
function Refunds({ refunds }: { refunds: Refund[] }) {
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

/** Refund all that is left (amount left empty) or part of it, after one more confirmation. */
function RefundForm({ payment, onRefund }: { payment: Payment; onRefund: (amount: string) => Promise<unknown> }) {
  const { t, money } = useI18n();
  const [amount, setAmount] = useState('');
  const [asking, setAsking] = useState(false);
  const [invalid, setInvalid] = useState(false);
  const left = minus(payment.amount, payment.amountRefunded);

  function submit(e: FormEvent) {
    e.preventDefault();
    // Checked before the confirmation, which names the amount: "100.5" XAF must not read "101 FCFA".
    const ok = amount === '' || amountPattern(payment.currency).test(amount);
    setInvalid(!ok);
    if (ok) setAsking(true);
    else document.getElementById('refund-amount')?.focus();
  }

  return (
    <form className="actions" onSubmit={submit} aria-label={t('payment.refundLabel')}>
      <AmountField
        id="refund"
        label={t('payment.refundAmount', { currency: payment.currency })}
        currency={payment.currency}
        left={left}
        value={amount}
        invalid={invalid}
        style={{ marginBottom: 0 }}
        onChange={(value) => {
          setAmount(value);
          setInvalid(false);
          setAsking(false);
        }}
      />
      {asking ? (
        <>
          <button
            type="button"
            className="danger"
            autoFocus
            onClick={() => {
              setAsking(false);
              void onRefund(amount).then(() => setAmount(''));
            }}
          >
            {t('payment.refundConfirm', { amount: money(amount || left, payment.currency) })}
          </button>
          <button type="button" className="secondary" onClick={() => setAsking(false)}>
            {t('dash.keepIt')}
          </button>
        </>
      ) : (
        <button type="submit" className="danger">
          {t('payment.refund')}
        </button>
      )}
    </form>
  );
}

/** An amount to give back, empty for all that is `left`: its hint, and its error once checked. */
function AmountField(props: {
  id: string;
  label: string;
  currency: string;
  left: string;
  value: string;
  invalid: boolean;
  style?: CSSProperties;
  onChange: (value: string) => void;
}) {
  const { t, money } = useI18n();
  const { id, currency, left, invalid } = props;
  return (
    <div className="field" style={props.style}>
      <label htmlFor={`${id}-amount`}>{props.label}</label>
      <input
        id={`${id}-amount`}
        inputMode="decimal"
        value={props.value}
        placeholder={left}
        onChange={(e) => props.onChange(e.target.value.trim())}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-hint ${id}-error` : `${id}-hint`}
      />
      <p id={`${id}-hint`} className="hint">
        {t('payment.refundHint', { left: money(left, currency) })}
      </p>
      {invalid && (
        <p id={`${id}-error`} className="notice error" role="alert">
          {t('payment.refundAmountInvalid', { example: money(left, currency), digits: fractionDigits(currency) })}
        </p>
      )}
    </div>
  );
}

/** How a refund made outside Caisse was paid, with its label. */
const RECORD_METHODS: Record<RecordedRefundBody['method'], MessageId> = {
  cash: 'payment.recordMethod.cash',
  bank_transfer: 'payment.recordMethod.bank_transfer',
  mobile_money: 'payment.recordMethod.mobile_money',
  other: 'payment.recordMethod.other',
};

/**
 * For a payment its provider cannot refund: the merchant records that it paid the payer back
 * another way (no money moves in Caisse), all that is left or part of it.
 */
function RecordRefundForm({ payment, onRecord }: { payment: Payment; onRecord: (body: RecordedRefundBody) => Promise<unknown> }) {
  const { t } = useI18n();
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState<RecordedRefundBody['method']>('cash');
  const [reference, setReference] = useState('');
  const [invalid, setInvalid] = useState(false);
  const left = minus(payment.amount, payment.amountRefunded);

  function submit(e: FormEvent) {
    e.preventDefault();
    const ok = amount === '' || amountPattern(payment.currency).test(amount);
    setInvalid(!ok);
    if (!ok) {
      document.getElementById('record-amount')?.focus();
      return;
    }
    const body: RecordedRefundBody = { method, ...(amount ? { amount } : {}), ...(reference.trim() ? { reference: reference.trim() } : {}) };
    void onRecord(body).then(() => {
      setAmount('');
      setReference('');
    });
  }

  return (
    <section aria-labelledby="record-title">
      <h2 id="record-title">{t('payment.recordTitle')}</h2>
      <p className="hint">{t('payment.recordIntro')}</p>
      <form onSubmit={submit} aria-labelledby="record-title">
        <AmountField
          id="record"
          label={t('payment.recordAmount', { currency: payment.currency })}
          currency={payment.currency}
          left={left}
          value={amount}
          invalid={invalid}
          onChange={(value) => {
            setAmount(value);
            setInvalid(false);
          }}
        />
        <div className="field">
          <label htmlFor="record-method">{t('payment.recordMethod')}</label>
          <select id="record-method" value={method} onChange={(e) => setMethod(e.target.value as RecordedRefundBody['method'])}>
            {Object.entries(RECORD_METHODS).map(([m, label]) => (
              <option key={m} value={m}>
                {t(label)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="record-reference">{t('payment.recordReference')}</label>
          <input id="record-reference" value={reference} maxLength={200} onChange={(e) => setReference(e.target.value)} />
        </div>
        <button type="submit">{t('payment.recordSubmit')}</button>
      </form>
    </section>
  );
}

/** The currency's minor-unit digits (ISO 4217, as Intl knows them): XAF 0, EUR 2. */
function fractionDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** A positive amount in major units with at most the currency's decimals: what the API takes. */
function amountPattern(currency: string): RegExp {
  const digits = fractionDigits(currency);
  return new RegExp(`^(0|[1-9][0-9]*)${digits > 0 ? `(\\.[0-9]{1,${digits}})?` : ''}$`);
}

/** `a − b` of two decimal strings in major units, exactly (never through a float). */
function minus(a: string, b: string): string {
  const decimals = (x: string) => x.split('.')[1]?.length ?? 0;
  const d = Math.max(decimals(a), decimals(b));
  const scaled = (x: string) => BigInt(x.replace('.', '') + '0'.repeat(d - decimals(x)));
  const r = (scaled(a) - scaled(b)).toString().padStart(d + 1, '0');
  return d === 0 ? r : `${r.slice(0, -d)}.${r.slice(-d)}`;
}
