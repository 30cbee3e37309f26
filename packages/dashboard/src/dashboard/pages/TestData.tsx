import { type FormEvent, useState } from 'react';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { api } from '../api.ts';
import { Link } from '../router.tsx';
import type { List, Message, Mode, TestUser } from '../types.ts';
import { ErrorNotice, PageTitle, StatusNotice, TableWrap, useLoad } from '../ui.tsx';

const CURRENCIES = ['XAF', 'XOF', 'EUR', 'USD'];

export function TestData({ mode }: { mode: Mode }) {
  if (mode !== 'test') {
    return (
      <>
        <PageTitle title="Test data">Test data</PageTitle>
        <div className="notice info">
          <p>Test users and the messages outbox exist in test mode only: live mode never sends a fake message.</p>
          <p>
            <Link to="/dashboard/test/test-data">Switch to test mode</Link>
          </p>
        </div>
      </>
    );
  }
  return <TestDataPage />;
}

function TestDataPage() {
  const messages = useLoad(() => api<List<Message>>('GET', '/test/messages?limit=50'), 'messages');
  const [form, setForm] = useState({ phoneNumber: '', password: '', email: '', balance: '50000', currency: 'XAF' });
  const [created, setCreated] = useState<TestUser[]>([]);
  const [error, setError] = useState<unknown>(null);

  async function create(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const user = await api<TestUser>('POST', '/test/test-users', {
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
      <PageTitle title="Test data">Test data</PageTitle>
      <form className="card" onSubmit={create} aria-labelledby="tu-title">
        <h2 id="tu-title" style={{ marginTop: 0 }}>
          Create a test user with a funded wallet
        </h2>
        <p className="hint">The phone number is verified at once; use the user to pay on the hosted checkout page in test mode.</p>
        <ErrorNotice error={error} />
        <div className="form-row">
          <div className="field">
            <label htmlFor="tu-phone">
              Phone number <span className="hint">International format, e.g. +237650000001</span>
            </label>
            <input id="tu-phone" type="tel" required autoComplete="off" value={form.phoneNumber} onChange={set('phoneNumber')} />
          </div>
          <div className="field">
            <label htmlFor="tu-password">Password</label>
            <input id="tu-password" type="text" required autoComplete="off" value={form.password} onChange={set('password')} />
          </div>
          <div className="field">
            <label htmlFor="tu-email">
              E-mail <span className="hint">Optional, for codes by e-mail</span>
            </label>
            <input id="tu-email" type="email" value={form.email} onChange={set('email')} />
          </div>
        </div>
        <div className="form-row" style={{ marginTop: '1rem' }}>
          <div className="field">
            <label htmlFor="tu-balance">Opening balance</label>
            <input id="tu-balance" inputMode="decimal" value={form.balance} onChange={set('balance')} />
          </div>
          <div className="field">
            <label htmlFor="tu-currency">Currency</label>
            <select id="tu-currency" value={form.currency} onChange={set('currency')}>
              {CURRENCIES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </div>
          <div className="actions" style={{ marginTop: 0 }}>
            <button type="submit">Create test user</button>
          </div>
        </div>
      </form>
      {created.length > 0 && (
        <StatusNotice>
          {created.map((u) => (
            <p key={u.id}>
              Created <strong>{u.phoneNumber}</strong> (<code>{u.id}</code>) with {u.balances.map((b) => formatMoney(b.amount, b.currency)).join(', ') || 'an empty wallet'}.
            </p>
          ))}
        </StatusNotice>
      )}

      <section aria-labelledby="outbox-title">
        <div className="actions">
          <h2 id="outbox-title" style={{ margin: 0 }}>
            Messages outbox
          </h2>
          <button type="button" className="secondary" onClick={() => messages.reload()}>
            Refresh
          </button>
        </div>
        <p className="hint">SMS and e-mails test mode &quot;sent&quot; (one-time codes included), newest first. Nothing leaves the server in test mode.</p>
        <ErrorNotice error={messages.error} />
        {messages.data && (
          <TableWrap label="Messages outbox">
            <table>
              <thead>
                <tr>
                  <th scope="col">Sent</th>
                  <th scope="col">Channel</th>
                  <th scope="col">To</th>
                  <th scope="col">Message</th>
                </tr>
              </thead>
              <tbody>
                {messages.data.data.length === 0 && (
                  <tr>
                    <td colSpan={4} className="empty">
                      No messages yet.
                    </td>
                  </tr>
                )}
                {messages.data.data.map((m) => (
                  <tr key={m.id}>
                    <td>{formatDateTime(m.createdAt)}</td>
                    <td>{m.channel === 'sms' ? 'SMS' : 'E-mail'}</td>
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
