import { useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api } from '../../dashboard/api.ts';
import { useSubmit } from '../../dashboard/pages/Login.tsx';
import { PageTitle, StatusNotice } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { Field, Loading, OperatorError, type PageProps, Table, useModeText } from '../shared.tsx';
import type { RouteList } from '../types.ts';

type Route = RouteList['data'][number];

/**
 * Routes (decision 0077): for each mode, country and method, the connectors a new attempt (or a
 * payout to it) tries in order, and whether that is the default; with `providers:manage`, a form
 * that sets one (or puts the default back). The server refuses a connector that does not serve the
 * method there, and audits every change.
 */
export function Routes({ can }: PageProps) {
  const { t, dateTime } = useI18n();
  const modeText = useModeText();
  const loaded = useOperatorQuery<RouteList>(['routes'], '/routes');
  const [key, setKey] = useState({ mode: 'live' as 'test' | 'live', country: 'CM', kind: 'payment' as 'payment' | 'payout', method: '' });
  const [connectors, setConnectors] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, run } = useSubmit();
  const manage = can('providers:manage');
  const edit = (r: Route) => {
    setKey({ mode: r.mode, country: r.country, kind: r.kind, method: r.method });
    setConnectors(r.connectors.join(', '));
    setDone(false);
  };
  const save = (list: string[] | null) =>
    void run(async () => {
      setDone(false);
      await api('PUT', '/routes', { ...key, country: key.country.trim().toUpperCase(), method: key.method.trim(), connectors: list });
      setDone(true);
      loaded.reload();
    });
  return (
    <>
      <PageTitle title={t('operator.routesTitle')}>{t('operator.routesTitle')}</PageTitle>
      <p>{t('operator.routesIntro')}</p>
      <OperatorError error={loaded.error} />
      <Loading shown={loaded.loading && !loaded.data} />
      {loaded.data ? (
        <Table
          label={t('operator.routesTitle')}
          head={[
            t('operator.mode'),
            t('operator.country'),
            t('operator.routeKind'),
            t('operator.routeMethod'),
            t('operator.routeConnectors'),
            t('operator.updated'),
            ...(manage ? [t('operator.change')] : []),
          ]}
        >
          {loaded.data.data.map((r) => (
            <tr key={`${r.mode}-${r.country}-${r.kind}-${r.method}`}>
              <td>{modeText(r.mode)}</td>
              <td>{r.country}</td>
              <td>{r.kind === 'payout' ? t('operator.routePayout') : t('operator.routePayment')}</td>
              <th scope="row" className="mono">
                {r.method}
              </th>
              <td className="mono">{r.connectors.length > 0 ? r.connectors.join(' → ') : t('operator.routeNone')}</td>
              <td>
                {r.overridden && r.updatedAt ? t('operator.updatedBy', { date: dateTime(r.updatedAt), who: r.updatedBy ?? '—' }) : t('operator.routeDefault')}
              </td>
              {manage ? (
                <td>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={t('operator.routeChange', {
                      method: r.method,
                      kind: r.kind === 'payout' ? t('operator.routePayout') : t('operator.routePayment'),
                      country: r.country,
                      mode: modeText(r.mode),
                    })}
                    onClick={() => edit(r)}
                  >
                    {t('operator.change')}
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </Table>
      ) : null}
      {manage ? (
        <form
          aria-labelledby="route-form-title"
          onSubmit={(e) => {
            e.preventDefault();
            save(
              connectors
                .split(',')
                .map((c) => c.trim())
                .filter((c) => c !== ''),
            );
          }}
        >
          <h2 id="route-form-title">{t('operator.routeSetTitle')}</h2>
          {done ? <StatusNotice>{t('operator.routeSaved')}</StatusNotice> : null}
          <OperatorError error={error} />
          <div className="form-row">
            <Field label={t('operator.mode')}>
              {(id) => (
                <select id={id} value={key.mode} onChange={(e) => setKey({ ...key, mode: e.target.value as 'test' | 'live' })}>
                  <option value="live">{t('dash.liveMode')}</option>
                  <option value="test">{t('dash.testMode')}</option>
                </select>
              )}
            </Field>
            <Field label={t('operator.country')}>
              {(id) => (
                <input id={id} required pattern="[A-Za-z]{2}" maxLength={2} value={key.country} onChange={(e) => setKey({ ...key, country: e.target.value })} />
              )}
            </Field>
            <Field label={t('operator.routeKind')}>
              {(id) => (
                <select id={id} value={key.kind} onChange={(e) => setKey({ ...key, kind: e.target.value as 'payment' | 'payout' })}>
                  <option value="payment">{t('operator.routePayment')}</option>
                  <option value="payout">{t('operator.routePayout')}</option>
                </select>
              )}
            </Field>
            <Field label={t('operator.routeMethod')}>
              {(id) => <input id={id} required maxLength={32} value={key.method} onChange={(e) => setKey({ ...key, method: e.target.value })} />}
            </Field>
          </div>
          <Field label={t('operator.routeConnectors')} hint={t('operator.routeConnectorsHint')}>
            {(id) => <input id={id} required value={connectors} onChange={(e) => setConnectors(e.target.value)} />}
          </Field>
          <div className="form-row">
            <button type="submit" disabled={busy}>
              {t('operator.routeSave')}
            </button>
            <button type="button" className="secondary" disabled={busy || key.method.trim() === ''} onClick={() => save(null)}>
              {t('operator.routeReset')}
            </button>
          </div>
        </form>
      ) : null}
    </>
  );
}
