import { type FormEvent, useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { useCreateTestUser, useSettleTestBalance, useTestMessages } from '../queries/testdata.ts';
import { Link } from '../router.tsx';
import type { Mode, TestUser } from '../types.ts';
import { ErrorNotice, PageTitle, StatusNotice, TableWrap } from '../ui.tsx';

const CURRENCIES = ['XAF', 'XOF', 'EUR', 'USD'];

export function TestData({ mode }: { mode: Mode }) {
  const { t } = useI18n();
  if (mode !== 'test') {
    return (
      <>
        <PageTitle title={t('testData.title')}>{t('testData.title')}</PageTitle>
        <div className="notice info">
          <p>{t('testData.liveOnly')}</p>
          <p>
            <Link to="/dashboard/test/test-data">{t('testData.switch')}</Link>
          </p>
        </div>
      </>
    );
  }
  return <TestDataPage />;
}

function TestDataPage() {
  const { t, rich, money, dateTime } = useI18n();
  const messages = useTestMessages();
  const createTestUser = useCreateTestUser();
  const [form, setForm] = useState({ phoneNumber: '', password: '', email: '', balance: '50000', currency: 'XAF' });
  const [created, setCreated] = useState<TestUser[]>([]);
  const [error, setError] = useState<unknown>(null);

  async function create(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const user = await createTestUser.mutateAsync({
        phoneNumber: form.phoneNumber.replace(/\s+/g, ''),
        password: form.password,
        ...(form.email ? { email: form.email } : {}),
        balance: form.balance || '0',
        currency: form.currency,
      });
      setCreated([user, ...created]);
      setForm({ ...form, phoneNumber: '', email: '' });
    } catch (err) {
      setError(err);
    }
  }

  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });

  return (
    <>
      <PageTitle title={t('testData.title')}>{t('testData.title')}</PageTitle>
      <SettleNow />
      <form className="card" onSubmit={create} aria-labelledby="tu-title">
        <h2 id="tu-title" style={{ marginTop: 0 }}>
          {t('testData.createTitle')}
        </h2>
        <p className="hint">{t('testData.createHint')}</p>
        <ErrorNotice error={error} />
        <div className="form-row">
          <div className="field">
            <label htmlFor="tu-phone">
              {t('testData.phone')} <span className="hint">{t('testData.phoneHint')}</span>
            </label>
            <input id="tu-phone" type="tel" required autoComplete="off" value={form.phoneNumber} onChange={set('phoneNumber')} />
          </div>
          <div className="field">
            <label htmlFor="tu-password">{t('testData.password')}</label>
            <input id="tu-password" type="text" required autoComplete="off" value={form.password} onChange={set('password')} />
          </div>
          <div className="field">
            <label htmlFor="tu-email">
              {t('testData.email')} <span className="hint">{t('testData.emailHint')}</span>
            </label>
            <input id="tu-email" type="email" value={form.email} onChange={set('email')} />
          </div>
        </div>
        <div className="form-row" style={{ marginTop: '1rem' }}>
          <div className="field">
            <label htmlFor="tu-balance">{t('testData.balance')}</label>
            <input id="tu-balance" inputMode="decimal" value={form.balance} onChange={set('balance')} />
          </div>
          <div className="field">
            <label htmlFor="tu-currency">{t('testData.currency')}</label>
            <select id="tu-currency" value={form.currency} onChange={set('currency')}>
              {CURRENCIES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </div>
          <div className="actions" style={{ marginTop: 0 }}>
            <button type="submit">{t('testData.create')}</button>
          </div>
        </div>
      </form>
      {created.length > 0 && (
        <StatusNotice>
          {created.map((u) => (
            <p key={u.id}>
              {u.balances.length
                ? rich('testData.created', { phone: u.phoneNumber, id: u.id, balances: u.balances.map((b) => money(b.amount, b.currency)).join(', ') })
                : rich('testData.createdEmpty', { phone: u.phoneNumber, id: u.id })}
            </p>
          ))}
        </StatusNotice>
      )}

      <section aria-labelledby="outbox-title">
        <div className="actions">
          <h2 id="outbox-title" style={{ margin: 0 }}>
            {t('testData.outbox')}
          </h2>
          <button type="button" className="secondary" onClick={() => void messages.refetch()}>
            {t('dash.refresh')}
          </button>
        </div>
        <p className="hint">{t('testData.outboxHint')}</p>
        <ErrorNotice error={messages.error} />
        {messages.data && (
          <TableWrap label={t('testData.outbox')}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('testData.sent')}</th>
                  <th scope="col">{t('testData.channel')}</th>
                  <th scope="col">{t('testData.to')}</th>
                  <th scope="col">{t('testData.message')}</th>
                </tr>
              </thead>
              <tbody>
                {messages.data.data.length === 0 && (
                  <tr>
                    <td colSpan={4} className="empty">
                      {t('testData.noMessages')}
                    </td>
                  </tr>
                )}
                {messages.data.data.map((m) => (
                  <tr key={m.id}>
                    <td>{dateTime(m.createdAt)}</td>
                    <td>{m.channel === 'sms' ? t('testData.sms') : t('testData.emailChannel')}</td>
                    <td className="mono">{m.to}</td>
                    <td>{m.body ?? '—'}</td>
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

/** Pending test money made available now, so a tester using only the dashboard can make a payout. */
function SettleNow() {
  const { t, money } = useI18n();
  const settle = useSettleTestBalance('test');
  const [error, setError] = useState<unknown>(null);
  const [available, setAvailable] = useState<string | null>(null);
  async function run() {
    setError(null);
    try {
      const balance = await settle.mutateAsync(undefined);
      setAvailable(balance.available.map((b) => money(b.amount, b.currency)).join(', ') || money('0', 'XAF'));
    } catch (err) {
      setError(err);
    }
  }
  return (
    <section className="card" aria-labelledby="settle-title">
      <h2 id="settle-title" style={{ marginTop: 0 }}>
        {t('testData.settleTitle')}
      </h2>
      <p className="hint">{t('testData.settleHint')}</p>
      <ErrorNotice error={error} />
      {available !== null && <StatusNotice>{t('testData.settled', { available })}</StatusNotice>}
      <button type="button" onClick={() => void run()} disabled={settle.isPending}>
        {t('testData.settle')}
      </button>
    </section>
  );
}
