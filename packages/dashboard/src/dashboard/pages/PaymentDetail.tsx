import { useState } from 'react';
import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import { useCan } from '../permissions.tsx';
import { useResendEvent } from '../queries/events.ts';
import { useCancelPayment, usePayment, useRecordRefund, useRefundPayment } from '../queries/payments.ts';
import { useProviderName } from '../queries/providers.ts';
import { Link } from '../router.tsx';
import { FAILURE_TEXTS } from './Customers.tsx';
import { Attempts, Deliveries, Refunds, Timeline } from './PaymentActivity.tsx';
import { RecordRefundForm, RefundForm } from './PaymentRefundForms.tsx';
import type { Mode, Payment } from '../types.ts';
import { Badge, ConfirmButton, ErrorNotice, PageTitle, StatusNotice } from '../ui.tsx';

export function PaymentDetail({ mode, id }: { mode: Mode; id: string }) {
  const { t, money, dateTime } = useI18n();
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

      <Timeline
        mode={mode}
        events={detail.events}
        onResend={can('webhooks:write') ? (e) => void act(() => resend.mutateAsync({ id: e.id }), t('payment.resent', { type: e.type })) : undefined}
      />
      <Deliveries mode={mode} deliveries={detail.deliveries} events={detail.events} />
    </>
  );
}
