import { type FormEvent, useState } from 'react';
import { formatDateTime } from '../../shared/format.ts';
import { api } from '../api.ts';
import type { ApiKey, CreatedApiKey, List, Mode } from '../types.ts';
import { Badge, ConfirmButton, ErrorNotice, PageTitle, SecretField, StatusNotice, TableWrap, useLoad } from '../ui.tsx';

const GRACE_CHOICES = [
  { seconds: 0, label: 'Stop the old key now' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 24 * 3600, label: '24 hours' },
  { seconds: 3 * 24 * 3600, label: '3 days' },
  { seconds: 7 * 24 * 3600, label: '7 days (the most)' },
];

function stateOf(k: ApiKey, now: Date): { value: string; label: string } {
  if (k.revokedAt) return { value: 'revoked', label: 'revoked' };
  if (k.expiresAt && new Date(k.expiresAt) <= now) return { value: 'expired', label: 'expired' };
  if (k.expiresAt) return { value: 'expiring', label: `rolled: works until ${formatDateTime(k.expiresAt)}` };
  return { value: 'active', label: 'active' };
}

function RollForm({ k, onRolled }: { k: ApiKey; onRolled: (created: CreatedApiKey) => void }) {
  const [open, setOpen] = useState(false);
  const [grace, setGrace] = useState(String(24 * 3600));
  const [error, setError] = useState<unknown>(null);
  if (!open) {
    return (
      <button type="button" className="secondary" onClick={() => setOpen(true)}>
        Roll<span className="visually-hidden"> {k.name}</span>
      </button>
    );
  }
  async function roll(e: FormEvent) {
    e.preventDefault();
    try {
      const rolled = await api<{ old: ApiKey; new: CreatedApiKey }>('POST', `/${k.mode}/keys/${k.id}/roll`, { graceSeconds: Number(grace) });
      setOpen(false);
      onRolled(rolled.new);
    } catch (err) {
      setError(err);
    }
  }
  return (
    <form onSubmit={roll} className="card" style={{ margin: '0.5rem 0' }} aria-label={`Roll ${k.name}`}>
      <ErrorNotice error={error} />
      <div className="field">
        <label htmlFor={`grace-${k.id}`}>
          Keep the old key working for
          <span className="hint">Deploy the new key before this ends.</span>
        </label>
        <select id={`grace-${k.id}`} value={grace} onChange={(e) => setGrace(e.target.value)}>
          {GRACE_CHOICES.map((c) => (
            <option key={c.seconds} value={c.seconds}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      <div className="actions">
        <button type="submit">Roll key</button>
        <button type="button" className="secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function ApiKeys({ mode }: { mode: Mode }) {
  const keys = useLoad(() => api<List<ApiKey>>('GET', `/${mode}/keys`), mode);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'publishable' | 'secret'>('publishable');
  const [shown, setShown] = useState<{ key: CreatedApiKey; why: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  const now = new Date();

  async function create(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setDone('');
    try {
      const created = await api<CreatedApiKey>('POST', `/${mode}/keys`, { name, kind });
      setShown({ key: created, why: 'created' });
      setName('');
      keys.reload();
    } catch (err) {
      setError(err);
    }
  }

  async function revoke(k: ApiKey) {
    setError(null);
    try {
      await api('POST', `/${mode}/keys/${k.id}/revoke`, {});
      setDone(`${k.name} was revoked: it no longer works.`);
      keys.reload();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <>
      <PageTitle title="API keys">API keys</PageTitle>
      <p>
        Browsers use an <strong>API key</strong> (<code>pk_{mode}_…</code>) in the <code>x-api-key</code> header. Your server also sends a{' '}
        <strong>secret key</strong> (<code>sk_{mode}_…</code>) as <code>Authorization: Bearer</code>; never put a secret key in a web page or an app.
      </p>
      <ErrorNotice error={error} />
      {done && <StatusNotice>{done}</StatusNotice>}
      {shown && (
        <section className="notice warning" aria-labelledby="shown-title">
          <h2 id="shown-title" style={{ marginTop: 0 }}>
            {shown.why === 'created' ? 'Your new key' : 'Your rolled key'}: copy it now
          </h2>
          <p>This is the only time it is shown. Caisse keeps only a hash of it.</p>
          <SecretField label={`${shown.key.name} (${shown.key.kind === 'secret' ? 'secret key' : 'API key'})`} value={shown.key.secret} />
          <button type="button" className="secondary" onClick={() => setShown(null)}>
            I have copied it
          </button>
        </section>
      )}
      <form className="card" onSubmit={create} aria-labelledby="create-title">
        <h2 id="create-title" style={{ marginTop: 0 }}>
          Create a {mode} key
        </h2>
        <div className="form-row">
          <div className="field">
            <label htmlFor="key-name">Name</label>
            <input id="key-name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder="Web shop" />
          </div>
          <div className="field">
            <label htmlFor="key-kind">Kind</label>
            <select id="key-kind" value={kind} onChange={(e) => setKind(e.target.value as 'publishable' | 'secret')}>
              <option value="publishable">API key (pk_, for browsers)</option>
              <option value="secret">Secret key (sk_, for your server)</option>
            </select>
          </div>
          <div className="actions" style={{ marginTop: 0 }}>
            <button type="submit">Create key</button>
          </div>
        </div>
      </form>
      <ErrorNotice error={keys.error} />
      {keys.data && (
        <TableWrap label={`${mode} keys`}>
          <table>
            <caption>{mode === 'test' ? 'Test' : 'Live'} keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.data.length === 0 && (
                <tr>
                  <td colSpan={7} className="empty">
                    No {mode} keys yet.
                  </td>
                </tr>
              )}
              {keys.data.data.map((k) => {
                const state = stateOf(k, now);
                const usable = state.value === 'active' || state.value === 'expiring';
                return (
                  <tr key={k.id}>
                    <th scope="row">{k.name}</th>
                    <td>{k.kind === 'secret' ? 'secret' : 'API key'}</td>
                    <td className="mono">{k.display}</td>
                    <td>{formatDateTime(k.createdAt)}</td>
                    <td>{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : 'never'}</td>
                    <td>
                      <Badge value={state.value} label={state.label} />
                    </td>
                    <td>
                      {usable && (
                        <div className="actions" style={{ marginTop: 0 }}>
                          {state.value === 'active' && <RollForm k={k} onRolled={(created) => { setShown({ key: created, why: 'rolled' }); keys.reload(); }} />}
                          <ConfirmButton label="Revoke" name={`Revoke ${k.name}`} confirmLabel={`Revoke ${k.name} now`} onConfirm={() => void revoke(k)} />
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableWrap>
      )}
    </>
  );
}
