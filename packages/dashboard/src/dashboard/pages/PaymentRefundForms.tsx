// The payment page's refund forms: a refund through the provider, or one recorded as paid back another way.
import { type CSSProperties, type FormEvent, useState } from 'react';
import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import type { Payment, RecordedRefundBody } from '../types.ts';

/** Refund all that is left (amount left empty) or part of it, after one more confirmation. */
export function RefundForm({ payment, onRefund }: { payment: Payment; onRefund: (amount: string) => Promise<unknown> }) {
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
export const RECORD_METHODS: Record<RecordedRefundBody['method'], MessageId> = {
  cash: 'payment.recordMethod.cash',
  bank_transfer: 'payment.recordMethod.bank_transfer',
  mobile_money: 'payment.recordMethod.mobile_money',
  other: 'payment.recordMethod.other',
};

/**
 * For a payment its provider cannot refund: the merchant records that it paid the payer back
 * another way (no money moves in Caisse), all that is left or part of it.
 */
export function RecordRefundForm({ payment, onRecord }: { payment: Payment; onRecord: (body: RecordedRefundBody) => Promise<unknown> }) {
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
