import { type FormEvent, useState } from 'react';
import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import { api } from '../api.ts';
import { useCan } from '../permissions.tsx';
import type { ApiKey, CreatedApiKey, List, Mode } from '../types.ts';
import { Badge, ConfirmButton, ErrorNotice, PageTitle, SecretField, StatusNotice, TableWrap, useLoad } from '../ui.tsx';

const GRACE_CHOICES: { seconds: number; label: MessageId }[] = [
  { seconds: 0, label: 'keys.graceNow' },
  { seconds: 3600, label: 'keys.grace1h' },
  { seconds: 24 * 3600, label: 'keys.grace24h' },
  { seconds: 3 * 24 * 3600, label: 'keys.grace3d' },
  { seconds: 7 * 24 * 3600, label: 'keys.grace7d' },
];

/** A key's state, and its words when a status alone does not say it (a rolled key's end). */
function stateOf(k: ApiKey, now: Date): { value: string; until?: string } {
  if (k.revokedAt) return { value: 'revoked' };
  if (k.expiresAt && new Date(k.expiresAt) <= now) return { value: 'expired' };
  if (k.expiresAt) return { value: 'expiring', until: k.expiresAt };
  return { value: 'active' };
}

function RollForm({ k, onRolled }: { k: ApiKey; onRolled: (created: CreatedApiKey) => void }) {
  const { t, rich } = useI18n();
  const [open, setOpen] = useState(false);
  const [grace, setGrace] = useState(String(24 * 3600));
  const [error, setError] = useState<unknown>(null);
  if (!open) {
    return (
      <button type="button" className="secondary" onClick={() => setOpen(true)}>
        {rich('keys.roll', { name: k.name, hidden: (chunks) => <span className="visually-hidden">{chunks}</span> })}
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
    <form onSubmit={roll} className="card" style={{ margin: '0.5rem 0' }} aria-label={t('keys.rollLabel', { name: k.name })}>
      <ErrorNotice error={error} />
      <div className="field">
        <label htmlFor={`grace-${k.id}`}>
          {t('keys.graceLabel')}
          <span className="hint">{t('keys.graceHint')}</span>
        </label>
        <select id={`grace-${k.id}`} value={grace} onChange={(e) => setGrace(e.target.value)}>
          {GRACE_CHOICES.map((c) => (
            <option key={c.seconds} value={c.seconds}>
              {t(c.label)}
            </option>
          ))}
        </select>
      </div>
      <div className="actions">
        <button type="submit">{t('keys.rollKey')}</button>
        <button type="button" className="secondary" onClick={() => setOpen(false)}>
          {t('dash.cancel')}
        </button>
      </div>
    </form>
  );
}

export function ApiKeys({ mode }: { mode: Mode }) {
  const writable = useCan()('keys:write');
  const { t, rich, dateTime } = useI18n();
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
      setDone(t('keys.revoked', { name: k.name }));
      keys.reload();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <>
      <PageTitle title={t('keys.title')}>{t('keys.title')}</PageTitle>
      <p>{rich('keys.intro', { mode })}</p>
      <ErrorNotice error={error} />
      {done && <StatusNotice>{done}</StatusNotice>}
      {shown && (
        <section className="notice warning" aria-labelledby="shown-title">
          <h2 id="shown-title" style={{ marginTop: 0 }}>
            {shown.why === 'created' ? t('keys.shownNew') : t('keys.shownRolled')}
          </h2>
          <p>{t('keys.shownOnce')}</p>
          <SecretField label={shown.key.kind === 'secret' ? t('keys.secretKeyNamed', { name: shown.key.name }) : t('keys.apiKeyNamed', { name: shown.key.name })} value={shown.key.secret} />
          <button type="button" className="secondary" onClick={() => setShown(null)}>
            {t('keys.copied')}
          </button>
        </section>
      )}
      {writable && (
        <form className="card" onSubmit={create} aria-labelledby="create-title">
          <h2 id="create-title" style={{ marginTop: 0 }}>
            {t('keys.createTitle', { mode })}
          </h2>
          <div className="form-row">
            <div className="field">
              <label htmlFor="key-name">{t('keys.name')}</label>
              <input id="key-name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder={t('keys.namePlaceholder')} />
            </div>
            <div className="field">
              <label htmlFor="key-kind">{t('keys.kind')}</label>
              <select id="key-kind" value={kind} onChange={(e) => setKind(e.target.value as 'publishable' | 'secret')}>
                <option value="publishable">{t('keys.kindPublishable')}</option>
                <option value="secret">{t('keys.kindSecret')}</option>
              </select>
            </div>
            <div className="actions" style={{ marginTop: 0 }}>
              <button type="submit">{t('keys.create')}</button>
            </div>
          </div>
        </form>
      )}
      <ErrorNotice error={keys.error} />
      {keys.data && (
        <TableWrap label={t('keys.tableLabel', { mode })}>
          <table>
            <caption>{t('keys.caption', { mode })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('keys.name')}</th>
                <th scope="col">{t('keys.kind')}</th>
                <th scope="col">{t('keys.key')}</th>
                <th scope="col">{t('keys.created')}</th>
                <th scope="col">{t('keys.lastUsed')}</th>
                <th scope="col">{t('keys.status')}</th>
                <th scope="col">{t('keys.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.data.length === 0 && (
                <tr>
                  <td colSpan={7} className="empty">
                    {t('keys.empty', { mode })}
                  </td>
                </tr>
              )}
              {keys.data.data.map((k) => {
                const state = stateOf(k, now);
                const usable = state.value === 'active' || state.value === 'expiring';
                return (
                  <tr key={k.id}>
                    <th scope="row">{k.name}</th>
                    <td>{k.kind === 'secret' ? t('keys.secret') : t('keys.apiKey')}</td>
                    <td className="mono">{k.display}</td>
                    <td>{dateTime(k.createdAt)}</td>
                    <td>{k.lastUsedAt ? dateTime(k.lastUsedAt) : t('keys.never')}</td>
                    <td>
                      <Badge value={state.value} label={state.until ? t('keys.rolledUntil', { until: dateTime(state.until) }) : undefined} />
                    </td>
                    <td>
                      {usable && writable && (
                        <div className="actions" style={{ marginTop: 0 }}>
                          {state.value === 'active' && <RollForm k={k} onRolled={(created) => { setShown({ key: created, why: 'rolled' }); keys.reload(); }} />}
                          <ConfirmButton label={t('keys.revoke')} name={t('keys.revokeName', { name: k.name })} confirmLabel={t('keys.revokeNow', { name: k.name })} onConfirm={() => void revoke(k)} />
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
