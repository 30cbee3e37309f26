import { type FormEvent, useState } from 'react';
import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import { useCan } from '../permissions.tsx';
import { useApiKeys, useCreateApiKey, useRevokeApiKey, useRollApiKey } from '../queries/apikeys.ts';
import { type AccessLevel, API_RESOURCES, type ApiKey, type ApiResource, type CreatedApiKey, type KeyPermissions, type Mode } from '../types.ts';
import { Badge, ConfirmButton, ErrorNotice, PageTitle, SecretField, StatusNotice, TableWrap } from '../ui.tsx';
import { ApiKeyOrigins } from './ApiKeyOrigins.tsx';

const GRACE_CHOICES: { seconds: number; label: MessageId }[] = [
  { seconds: 0, label: 'keys.graceNow' },
  { seconds: 3600, label: 'keys.grace1h' },
  { seconds: 24 * 3600, label: 'keys.grace24h' },
  { seconds: 3 * 24 * 3600, label: 'keys.grace3d' },
  { seconds: 7 * 24 * 3600, label: 'keys.grace7d' },
];

const RESOURCE_NAMES: Record<ApiResource, MessageId> = {
  payments: 'keys.resourcePayments',
  refunds: 'keys.resourceRefunds',
  payouts: 'keys.resourcePayouts',
  customers: 'keys.resourceCustomers',
  balance: 'keys.resourceBalance',
  webhooks: 'keys.resourceWebhooks',
  events: 'keys.resourceEvents',
  payment_links: 'keys.resourcePaymentLinks',
};
const ACCESS_NAMES: Record<AccessLevel, MessageId> = { none: 'keys.accessNone', read: 'keys.accessRead', write: 'keys.accessWrite' };
const LEVELS: AccessLevel[] = ['none', 'read', 'write'];
const KIND_NAMES: Record<ApiKey['kind'], MessageId> = { publishable: 'keys.apiKey', secret: 'keys.secret', restricted: 'keys.restricted' };

/** Live secret and restricted keys are confirmed with a fresh code of the authenticator app. */
const needsCode = (mode: Mode, kind: ApiKey['kind']) => mode === 'live' && kind !== 'publishable';

/** The code field of a live key's creation or roll. */
function CodeField({ id }: { id: string }) {
  const { t } = useI18n();
  return (
    <div className="field">
      <label htmlFor={id}>
        {t('keys.code')}
        <span className="hint">{t('keys.codeHint')}</span>
      </label>
      <input id={id} name="code" required inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,8}" maxLength={8} />
    </div>
  );
}

/** The code typed in a form's code field, if it has one. */
function codeOf(e: FormEvent): string | undefined {
  const value = new FormData(e.currentTarget as HTMLFormElement).get('code');
  return typeof value === 'string' ? value : undefined;
}

/** What a key may do, in words: its permissions that are not none, or everything for a secret key. */
function PermissionsSummary({ k }: { k: ApiKey }) {
  const { t } = useI18n();
  if (k.kind === 'secret') return <>{t('keys.permissionsAll')}</>;
  if (k.kind === 'publishable' || !k.permissions) return <>{t('keys.permissionsPublishable')}</>;
  const granted = API_RESOURCES.filter((r) => (k.permissions?.[r] ?? 'none') !== 'none');
  return (
    <ul className="plain">
      {granted.map((r) => (
        <li key={r}>{t('keys.accessOf', { resource: t(RESOURCE_NAMES[r]), access: t(ACCESS_NAMES[k.permissions?.[r] ?? 'none']) })}</li>
      ))}
    </ul>
  );
}

/** The restricted key's permission table: one radio group per resource. */
function PermissionTable({ value, onChange }: { value: KeyPermissions; onChange: (next: KeyPermissions) => void }) {
  const { t } = useI18n();
  return (
    <fieldset className="field">
      <legend>{t('keys.permissions')}</legend>
      <p className="hint">{t('keys.permissionsHint')}</p>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('keys.resource')}</th>
            {LEVELS.map((level) => (
              <th scope="col" key={level}>
                {t(ACCESS_NAMES[level])}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {API_RESOURCES.map((r) => (
            <tr key={r}>
              <th scope="row">{t(RESOURCE_NAMES[r])}</th>
              {LEVELS.map((level) => (
                <td key={level}>
                  <input
                    type="radio"
                    name={`perm-${r}`}
                    value={level}
                    aria-label={t('keys.accessOf', { resource: t(RESOURCE_NAMES[r]), access: t(ACCESS_NAMES[level]) })}
                    checked={(value[r] ?? 'none') === level}
                    onChange={() => onChange({ ...value, [r]: level })}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </fieldset>
  );
}

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
  const rollKey = useRollApiKey(k.mode);
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
      const rolled = await rollKey.mutateAsync({ id: k.id, graceSeconds: Number(grace), code: codeOf(e) });
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
      {needsCode(k.mode, k.kind) && <CodeField id={`roll-code-${k.id}`} />}
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
  const keys = useApiKeys(mode);
  const createKey = useCreateApiKey(mode);
  const revokeKey = useRevokeApiKey(mode);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ApiKey['kind']>('publishable');
  const [permissions, setPermissions] = useState<KeyPermissions>({});
  const [shown, setShown] = useState<{ key: CreatedApiKey; why: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  const now = new Date();

  async function create(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setDone('');
    try {
      const body = { name, kind, ...(kind === 'restricted' ? { permissions } : {}), ...(needsCode(mode, kind) ? { code: codeOf(e) } : {}) };
      const created = await createKey.mutateAsync(body);
      setShown({ key: created, why: 'created' });
      setName('');
      setPermissions({});
    } catch (err) {
      setError(err);
    }
  }

  async function revoke(k: ApiKey) {
    setError(null);
    try {
      await revokeKey.mutateAsync(k.id);
      // A revoked key is not one to copy any more.
      setShown((s) => (s?.key.id === k.id ? null : s));
      setDone(t('keys.revoked', { name: k.name }));
    } catch (err) {
      setError(err);
    }
  }

  return (
    <>
      <PageTitle title={t('keys.title')}>{t('keys.title')}</PageTitle>
      <p>{rich('keys.intro', { mode })}</p>
      <p>{rich('keys.introRestricted', { mode })}</p>
      <ErrorNotice error={error} />
      {done && <StatusNotice>{done}</StatusNotice>}
      {shown && (
        <section className="notice warning" aria-labelledby="shown-title">
          <h2 id="shown-title" style={{ marginTop: 0 }}>
            {shown.why === 'created' ? t('keys.shownNew') : t('keys.shownRolled')}
          </h2>
          <p>{t('keys.shownOnce')}</p>
          <SecretField
            label={
              shown.key.kind === 'publishable'
                ? t('keys.apiKeyNamed', { name: shown.key.name })
                : shown.key.kind === 'restricted'
                  ? t('keys.restrictedKeyNamed', { name: shown.key.name })
                  : t('keys.secretKeyNamed', { name: shown.key.name })
            }
            value={shown.key.secret}
          />
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
              <select id="key-kind" value={kind} onChange={(e) => setKind(e.target.value as ApiKey['kind'])}>
                <option value="publishable">{t('keys.kindPublishable')}</option>
                <option value="restricted">{t('keys.kindRestricted')}</option>
                <option value="secret">{t('keys.kindSecret')}</option>
              </select>
            </div>
          </div>
          {kind === 'restricted' && <PermissionTable value={permissions} onChange={setPermissions} />}
          {needsCode(mode, kind) && <CodeField id="key-code" />}
          <div className="actions">
            <button type="submit">{t('keys.create')}</button>
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
                <th scope="col">{t('keys.permissions')}</th>
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
                  <td colSpan={8} className="empty">
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
                    <td>{t(KIND_NAMES[k.kind])}</td>
                    <td>
                      <PermissionsSummary k={k} />
                      <ApiKeyOrigins k={k} mode={mode} editable={usable && writable} />
                    </td>
                    <td className="mono">{k.display}</td>
                    <td>{dateTime(k.createdAt)}</td>
                    <td>{k.lastUsedAt ? dateTime(k.lastUsedAt) : t('keys.never')}</td>
                    <td>
                      <Badge value={state.value} label={state.until ? t('keys.rolledUntil', { until: dateTime(state.until) }) : undefined} />
                    </td>
                    <td>
                      {usable && writable && (
                        <div className="actions" style={{ marginTop: 0 }}>
                          {state.value === 'active' && <RollForm k={k} onRolled={(created) => setShown({ key: created, why: 'rolled' })} />}
                          <ConfirmButton
                            label={t('keys.revoke')}
                            name={t('keys.revokeName', { name: k.name })}
                            confirmLabel={t('keys.revokeNow', { name: k.name })}
                            onConfirm={() => void revoke(k)}
                          />
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
