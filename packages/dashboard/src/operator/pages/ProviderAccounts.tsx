import { useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api } from '../../dashboard/api.ts';
import { useSubmit } from '../../dashboard/pages/Login.tsx';
import { PageTitle } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { Field, Loading, OperatorError, Table, useModeText } from '../shared.tsx';
import type { ProviderAccount, ProviderAccountCheck, ProviderAccountList, ProviderList } from '../types.ts';

/** `key=value` lines → the settings object (blank lines skipped). */
function settingsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (line.trim() === '' || at <= 0) continue;
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/**
 * The accounts Caisse calls each connector with, per mode and countries (decision 0075): the
 * platform's (environment variables, sandbox) and those operators add here. Credentials are
 * write-only: typed once in the form, never shown again but for their last four characters.
 */
export function ProviderAccounts() {
  const { t, dateTime } = useI18n();
  const modeText = useModeText();
  const loaded = useOperatorQuery<ProviderAccountList>(['provider-accounts'], '/provider-accounts');
  const providers = useOperatorQuery<ProviderList>(['providers'], '/providers');
  const connectors = [...new Set((providers.data?.data ?? []).map((p) => p.provider))];
  const [connector, setConnector] = useState('');
  const [mode, setMode] = useState<'test' | 'live'>('test');
  const [countries, setCountries] = useState('');
  const [settings, setSettings] = useState('');
  const [credentials, setCredentials] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const { busy, error, setError, run } = useSubmit();

  const act = (account: ProviderAccount, what: 'check' | 'disable') =>
    run(async () => {
      if (what === 'disable') {
        await api<ProviderAccount>('POST', `/provider-accounts/${account.id}/disable`, {});
        setNotice(t('operator.accountDisabled', { id: account.id }));
      } else {
        const result = await api<ProviderAccountCheck>('POST', `/provider-accounts/${account.id}/check`, {});
        setNotice(t(result.ok ? 'operator.accountCheckOk' : 'operator.accountCheckFailed', { id: account.id, detail: result.detail }));
      }
      loaded.reload();
    });

  return (
    <>
      <PageTitle title={t('operator.accountsTitle')}>{t('operator.accountsTitle')}</PageTitle>
      <p>{t('operator.accountsIntro')}</p>
      <OperatorError error={loaded.error ?? error} />
      <p role="status">{notice}</p>
      <Loading shown={loaded.loading && !loaded.data} />
      {loaded.data ? (
        <Table
          label={t('operator.accountsTitle')}
          head={[
            t('operator.account'),
            t('operator.mode'),
            t('operator.countries'),
            t('operator.accountStatus'),
            t('operator.capabilities'),
            t('operator.accountCredentials'),
            t('operator.lastCheck'),
            t('operator.actions'),
          ]}
        >
          {loaded.data.data.map((a) => (
            <tr key={a.id}>
              <th scope="row">
                {a.connector} <span className="mono hint">{a.id}</span>
                <span className="hint">{t('operator.accountSource', { source: a.source })}</span>
                {/* What the operator pastes into the provider's dashboard (pawaPay: one URL per operation type), and what Caisse sends itself. */}
                {a.callbacks.map((c) => (
                  <span key={c.purpose} className="hint" data-callback={c.purpose}>
                    {t(c.setAtProvider ? 'operator.callbackAtProvider' : 'operator.callbackPerRequest', { purpose: c.purpose })}{' '}
                    <span className="mono">{c.path !== null ? `${window.location.origin}${c.path}` : c.url}</span>
                  </span>
                ))}
              </th>
              <td>{modeText(a.mode)}</td>
              <td>
                {a.countries.join(', ')}
                {a.supersededBy.map((s) => (
                  <span key={s.country} className="hint">
                    {t('operator.supersededIn', { country: s.country, account: s.account })}
                  </span>
                ))}
              </td>
              <td>
                <span className={`badge ${a.status === 'active' ? 'ok' : ''}`}>{t('operator.accountStatusName', { status: a.status })}</span>
              </td>
              <td>{a.capabilities.map((capability) => t('operator.capabilityName', { capability })).join(', ')}</td>
              <td className="mono">
                {Object.entries(a.credentials)
                  .map(([name, masked]) => `${name} ${masked}`)
                  .join(', ') || '—'}
              </td>
              <td>
                {a.lastCheck ? (
                  <>
                    <span className={`badge ${a.lastCheck.ok ? 'ok' : 'bad'}`}>{a.lastCheck.ok ? t('operator.checkOk') : t('operator.checkFailed')}</span>{' '}
                    {a.lastCheck.detail} <span className="hint">{dateTime(a.lastCheck.at)}</span>
                  </>
                ) : (
                  t('operator.neverChecked')
                )}
              </td>
              <td>
                <button type="button" disabled={busy} onClick={() => void act(a, 'check')} aria-label={t('operator.checkAccount', { id: a.id })}>
                  {t('operator.check')}
                </button>{' '}
                {a.source === 'operator' && a.status === 'active' ? (
                  <button type="button" disabled={busy} onClick={() => void act(a, 'disable')} aria-label={t('operator.disableAccount', { id: a.id })}>
                    {t('operator.disable')}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </Table>
      ) : null}

      <section aria-labelledby="add-account-title">
        <h2 id="add-account-title">{t('operator.addAccountTitle')}</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            let parsed: unknown;
            try {
              parsed = JSON.parse(credentials);
            } catch {
              setError(new Error(t('operator.credentialsNotJson')));
              return;
            }
            void run(async () => {
              const added = await api<ProviderAccount>('POST', '/provider-accounts', {
                connector,
                mode,
                countries: countries
                  .split(',')
                  .map((c) => c.trim().toUpperCase())
                  .filter((c) => c !== ''),
                settings: settingsOf(settings),
                credentials: parsed,
              });
              // The credentials leave the page once sent.
              setCredentials('');
              setNotice(t('operator.accountAdded', { id: added.id }));
              loaded.reload();
            });
          }}
        >
          <Field label={t('operator.connector')}>
            {(id) => (
              <select id={id} required value={connector} onChange={(e) => setConnector(e.target.value)}>
                <option value="">—</option>
                {connectors.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('operator.mode')}>
            {(id) => (
              <select id={id} value={mode} onChange={(e) => setMode(e.target.value as 'test' | 'live')}>
                <option value="test">{modeText('test')}</option>
                <option value="live">{modeText('live')}</option>
              </select>
            )}
          </Field>
          <Field label={t('operator.countries')} hint={t('operator.countriesHint')}>
            {(id) => <input id={id} required value={countries} onChange={(e) => setCountries(e.target.value)} placeholder="CM, CI" />}
          </Field>
          <Field label={t('operator.accountSettings')} hint={t('operator.accountSettingsHint')}>
            {(id) => <textarea id={id} rows={4} value={settings} onChange={(e) => setSettings(e.target.value)} placeholder="baseUrl=https://…" />}
          </Field>
          <Field label={t('operator.accountCredentials')} hint={t('operator.accountCredentialsHint')}>
            {(id) => (
              <textarea
                id={id}
                rows={4}
                required
                autoComplete="off"
                spellCheck={false}
                value={credentials}
                onChange={(e) => setCredentials(e.target.value)}
                placeholder='{"…": "…"}'
              />
            )}
          </Field>
          <button type="submit" disabled={busy}>
            {t('operator.addAccount')}
          </button>
        </form>
      </section>
    </>
  );
}
