import { useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api } from '../../dashboard/api.ts';
import { useSubmit } from '../../dashboard/pages/Login.tsx';
import { Link, navigate } from '../../dashboard/router.tsx';
import { PageTitle, StatusNotice } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { Field, Loading, OperatorError, type PageProps, Table, useModeText } from '../shared.tsx';
import type { CustomerList, CustomerLock, CustomerPasswordReset } from '../types.ts';
import { LimitCells, limitHeads } from './CustomerLimits.tsx';

type Customer = CustomerList['data'][number];

/**
 * Support's customer page: a phone number's account in each mode, with its wallet, limits,
 * lock and latest movements; lock or unlock it, send the password reset code. Each lookup is in
 * the operator audit log (with the number masked).
 */
export function Customers({ can, search }: PageProps) {
  const { t } = useI18n();
  const phone = new URLSearchParams(search).get('phone') ?? '';
  const [text, setText] = useState(phone);
  return (
    <>
      <PageTitle title={t('operator.customersTitle')}>{t('operator.customersTitle')}</PageTitle>
      <form
        role="search"
        className="form-row"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(`/operator/customers?${new URLSearchParams({ phone: text.replace(/\s/g, '') }).toString()}`);
        }}
      >
        <Field label={t('operator.phoneLabel')} hint={t('operator.phoneHint')}>
          {(id) => <input id={id} type="tel" autoComplete="off" required minLength={4} maxLength={20} value={text} onChange={(e) => setText(e.target.value)} />}
        </Field>
        <div className="actions">
          <button type="submit">{t('operator.lookUp')}</button>
        </div>
      </form>
      {phone ? <Found phone={phone} can={can} /> : null}
    </>
  );
}

function Found({ phone, can }: { phone: string; can: PageProps['can'] }) {
  const { t } = useI18n();
  const found = useOperatorQuery<CustomerList>(['customers', phone], `/customers?${new URLSearchParams({ phone }).toString()}`);
  return (
    <>
      <OperatorError error={found.error} />
      <Loading shown={found.loading && !found.data} />
      {found.data && found.data.data.length === 0 ? <p>{t('operator.noCustomer')}</p> : null}
      {found.data?.data.map((c) => (
        <CustomerAccount key={c.id} customer={c} can={can} />
      ))}
    </>
  );
}

function CustomerAccount({ customer, can }: { customer: Customer; can: PageProps['can'] }) {
  const { t, money, dateTime } = useI18n();
  const modeText = useModeText();
  // The lock's answer is the account's state now: shown at once, without a second lookup.
  const [lock, setLock] = useState<CustomerLock | null>(null);
  const [reason, setReason] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const { busy, error, run } = useSubmit();
  const locked = lock?.locked ?? customer.locked;
  const lockedReason = lock ? lock.lockedReason : customer.lockedReason;
  const titleId = `customer-${customer.id}`;
  const path = `/customers/${encodeURIComponent(customer.id)}`;
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('operator.customerAccount', { mode: modeText(customer.mode) })}</h2>
      <p>
        <span className={`badge ${locked ? 'bad' : 'ok'}`}>{locked ? t('operator.locked') : t('operator.active')}</span>
        {locked && lockedReason ? ` ${t('operator.lockedBecause', { reason: lockedReason })}` : null}
      </p>
      <dl className="summary">
        <dt>{t('operator.id')}</dt>
        <dd className="mono">{customer.id}</dd>
        <dt>{t('operator.phone')}</dt>
        <dd>{customer.phoneNumber}</dd>
        <dt>{t('operator.phoneVerified')}</dt>
        <dd>{customer.phoneVerified ? t('operator.yes') : t('operator.no')}</dd>
        <dt>{t('operator.created')}</dt>
        <dd>{dateTime(customer.createdAt)}</dd>
      </dl>
      <h3>{t('operator.wallet')}</h3>
      {customer.balances.length === 0 ? (
        <p>{t('operator.noBalances')}</p>
      ) : (
        <Table label={t('operator.walletOf', { mode: modeText(customer.mode) })} head={[t('operator.currency'), t('operator.amount')]}>
          {customer.balances.map((b) => (
            <tr key={b.currency}>
              <td>{b.currency}</td>
              <td>{money(b.amount, b.currency)}</td>
            </tr>
          ))}
        </Table>
      )}
      <h3>{t('operator.limitsTitle')}</h3>
      {customer.limits.length === 0 ? (
        <p>{t('operator.noLimits')}</p>
      ) : (
        <Table label={t('operator.limitsOf', { mode: modeText(customer.mode) })} head={[t('operator.currency'), ...limitHeads(t)]}>
          {customer.limits.map((l) => (
            <tr key={l.currency}>
              <td>{l.currency}</td>
              <LimitCells limits={l.limits} currency={l.currency} />
            </tr>
          ))}
        </Table>
      )}
      <h3>{t('operator.movements')}</h3>
      {customer.movements.length === 0 ? (
        <p>{t('operator.noMovements')}</p>
      ) : (
        <Table
          label={t('operator.movementsOf', { mode: modeText(customer.mode) })}
          head={[t('operator.when'), t('operator.movementKind'), t('operator.merchant'), t('operator.reference'), t('operator.amount')]}
        >
          {customer.movements.map((m) => (
            <tr key={`${m.transferId}-${m.currency}`}>
              <td>{dateTime(m.createdAt)}</td>
              <td>{movementText(t, m.kind)}</td>
              <td>
                <Link to={`/operator/merchants/${encodeURIComponent(m.merchantId)}`}>{m.merchantId}</Link>
              </td>
              <td className="mono">{m.reference ?? '—'}</td>
              <td>{money(m.amount, m.currency)}</td>
            </tr>
          ))}
        </Table>
      )}
      {notice ? <StatusNotice>{notice}</StatusNotice> : null}
      <OperatorError error={error} />
      {can('customers:reset') ? (
        <div className="actions">
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() =>
              void run(async () => {
                await api<CustomerPasswordReset>('POST', `${path}/password-reset`, {});
                setNotice(t('operator.resetSent', { phone: customer.phoneNumber }));
              })
            }
          >
            {t('operator.resetSend')}
          </button>
        </div>
      ) : null}
      {can('customers:lock') ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              const after = await api<CustomerLock>('POST', `${path}/${locked ? 'unlock' : 'lock'}`, { reason: reason.trim() });
              setLock(after);
              setReason('');
              setNotice(after.locked ? t('operator.lockedDone') : t('operator.unlockedDone'));
            });
          }}
        >
          <Field label={locked ? t('operator.unlockReason') : t('operator.lockReason')}>
            {(fid) => <textarea id={fid} required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}
          </Field>
          <button type="submit" className={locked ? undefined : 'danger'} disabled={busy}>
            {locked ? t('operator.unlock') : t('operator.lock')}
          </button>
        </form>
      ) : null}
    </section>
  );
}

function movementText(t: ReturnType<typeof useI18n>['t'], kind: string): string {
  if (kind === 'topup') return t('operator.movement.topup');
  if (kind === 'charge') return t('operator.movement.payment');
  if (kind === 'refund') return t('operator.movement.refund');
  if (kind === 'funding') return t('operator.movement.funding');
  return kind;
}
