import { useState } from 'react';
import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import { useCan } from '../permissions.tsx';
import { useResendEvent } from '../queries/events.ts';
import { useDeleteEndpoint, useDeliveries, useEndpoint, useEndpointStats, useRevealSecret, useRollSecret, useUpdateEndpoint } from '../queries/webhooks.ts';
import { Link, navigate } from '../router.tsx';
import type { EndpointSecret, Mode } from '../types.ts';
import { Badge, ConfirmButton, ErrorNotice, PageTitle, SecretField, StatusNotice, TableWrap } from '../ui.tsx';
import { EventTypesField, useEndpointStatus } from './Webhooks.tsx';

const ROLL_GRACE: { seconds: number; label: MessageId }[] = [
  { seconds: 0, label: 'endpoint.graceNow' },
  { seconds: 3600, label: 'keys.grace1h' },
  { seconds: 24 * 3600, label: 'keys.grace24h' },
  { seconds: 7 * 24 * 3600, label: 'endpoint.grace7d' },
];

export function WebhookEndpoint({ mode, id }: { mode: Mode; id: string }) {
  const writable = useCan()('webhooks:write');
  const { t, rich, dateTime } = useI18n();
  const endpointStatus = useEndpointStatus();
  const endpoint = useEndpoint(mode, id);
  const deliveries = useDeliveries(mode, id);
  const stats = useEndpointStats(mode, id);
  const update = useUpdateEndpoint(mode);
  const remove = useDeleteEndpoint(mode);
  const reveal = useRevealSecret(mode);
  const roll = useRollSecret(mode);
  const resend = useResendEvent(mode);
  const [secret, setSecret] = useState<EndpointSecret | null>(null);
  const [grace, setGrace] = useState(String(24 * 3600));
  const [events, setEvents] = useState<string[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');

  async function act<T>(what: () => Promise<T>, message: string): Promise<T | undefined> {
    setError(null);
    setDone('');
    try {
      const out = await what();
      setDone(message);
      return out;
    } catch (err) {
      setError(err);
      return undefined;
    }
  }

  const back = (
    <p>
      <Link to={`/dashboard/${mode}/webhooks`}>{t('endpoint.all')}</Link>
    </p>
  );
  const ep = endpoint.data;
  if (!ep) {
    return (
      <>
        {back}
        <PageTitle title={t('endpoint.title')}>{t('endpoint.title')}</PageTitle>
        {endpoint.error ? <ErrorNotice error={endpoint.error} /> : <p role="status">{t('dash.loading')}</p>}
      </>
    );
  }
  const chosen = events ?? (ep.enabledEvents.includes('*') ? [] : ep.enabledEvents);

  return (
    <>
      {back}
      <PageTitle title={t('endpoint.title')}>{t('endpoint.title')}</PageTitle>
      <p className="mono">{ep.url}</p>
      {done && <StatusNotice>{done}</StatusNotice>}
      <ErrorNotice error={error} focus />
      <section className="card" aria-labelledby="ep-summary">
        <h2 id="ep-summary" style={{ marginTop: 0 }}>
          {t('endpoint.details')}
        </h2>
        <dl className="summary">
          <dt>{t('endpoint.id')}</dt>
          <dd className="mono">{ep.id}</dd>
          <dt>{t('webhooks.status')}</dt>
          <dd>
            <Badge value={ep.enabled ? 'enabled' : 'disabled'} label={endpointStatus(ep)} />
          </dd>
          <dt>{t('endpoint.description')}</dt>
          <dd>{ep.description ?? '—'}</dd>
          <dt>{t('webhooks.addedAt')}</dt>
          <dd>{dateTime(ep.createdAt)}</dd>
          <dt>{t('endpoint.successRate')}</dt>
          <dd>
            {stats.data === undefined ? (
              <ErrorNotice error={stats.error} />
            ) : stats.data.successRate === null ? (
              t('endpoint.successRateNone')
            ) : (
              rich('endpoint.successRateValue', { rate: stats.data.successRate, succeeded: stats.data.succeeded, attempted: stats.data.attempted })
            )}
          </dd>
        </dl>
        {writable && (
          <div className="actions">
            <button
              type="button"
              className="secondary"
              onClick={() =>
                void act(() => update.mutateAsync({ id: ep.id, enabled: !ep.enabled }), ep.enabled ? t('endpoint.disabled') : t('endpoint.enabled'))
              }
            >
              {ep.enabled ? t('endpoint.disable') : t('endpoint.enable')}
            </button>
            <ConfirmButton
              label={t('endpoint.delete')}
              confirmLabel={t('endpoint.deleteConfirm')}
              onConfirm={() =>
                void act(() => remove.mutateAsync(ep.id), t('endpoint.deleted')).then((r) => r !== undefined && navigate(`/dashboard/${mode}/webhooks`))
              }
            />
          </div>
        )}
      </section>

      {writable && (
        <section className="card" aria-labelledby="ep-events">
          <h2 id="ep-events" style={{ marginTop: 0 }}>
            {t('endpoint.eventTypes')}
          </h2>
          <EventTypesField value={chosen} onChange={setEvents} idPrefix="ep-ev" />
          <div className="actions">
            <button
              type="button"
              onClick={() =>
                void act(() => update.mutateAsync({ id: ep.id, enabledEvents: chosen.length ? chosen : ['*'] }), t('endpoint.eventsSaved')).then(() =>
                  setEvents(null),
                )
              }
            >
              {t('endpoint.saveEvents')}
            </button>
          </div>
        </section>
      )}

      {writable && (
        <section className="card" aria-labelledby="ep-secret">
          <h2 id="ep-secret" style={{ marginTop: 0 }}>
            {t('webhooks.secret')}
          </h2>
          {secret ? (
            <>
              <SecretField label={t('endpoint.currentSecret')} value={secret.secret} />
              {secret.rollingSecrets.map((r) => (
                <SecretField key={r.secret} label={t('endpoint.previousSecret', { until: dateTime(r.expiresAt) })} value={r.secret} />
              ))}
              <button type="button" className="secondary" onClick={() => setSecret(null)}>
                {t('endpoint.hideSecret')}
              </button>
            </>
          ) : (
            <button type="button" className="secondary" onClick={() => void act(() => reveal.mutateAsync(ep.id), '').then((s) => s && setSecret(s))}>
              {t('endpoint.revealSecret')}
            </button>
          )}
          <div className="form-row" style={{ marginTop: '1rem' }}>
            <div className="field">
              <label htmlFor="roll-grace">{t('endpoint.graceLabel')}</label>
              <select id="roll-grace" value={grace} onChange={(e) => setGrace(e.target.value)}>
                {ROLL_GRACE.map((g) => (
                  <option key={g.seconds} value={g.seconds}>
                    {t(g.label)}
                  </option>
                ))}
              </select>
            </div>
            <div className="actions" style={{ marginTop: 0 }}>
              <button
                type="button"
                onClick={() =>
                  void act(() => roll.mutateAsync({ id: ep.id, expiresIn: Number(grace) }), t('endpoint.rolled')).then(async (r) => {
                    if (r) setSecret(await reveal.mutateAsync(ep.id));
                  })
                }
              >
                {t('endpoint.rollSecret')}
              </button>
            </div>
          </div>
        </section>
      )}

      <section aria-labelledby="ep-deliveries">
        <div className="actions">
          <h2 id="ep-deliveries" style={{ margin: 0 }}>
            {t('endpoint.deliveries')}
          </h2>
          <button type="button" className="secondary" onClick={() => void deliveries.refetch()}>
            {t('dash.refresh')}
          </button>
        </div>
        <ErrorNotice error={deliveries.error} />
        {deliveries.data && (
          <TableWrap label={t('endpoint.deliveriesLabel')}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('deliveries.event')}</th>
                  <th scope="col">{t('deliveries.status')}</th>
                  <th scope="col" className="num">
                    {t('deliveries.attempts')}
                  </th>
                  <th scope="col">{t('deliveries.lastAnswer')}</th>
                  <th scope="col">{t('deliveries.created')}</th>
                  <th scope="col">{t('deliveries.nextTry')}</th>
                  <th scope="col">{t('keys.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.data.length === 0 && (
                  <tr>
                    <td colSpan={7} className="empty">
                      {t('endpoint.noDeliveries')}
                    </td>
                  </tr>
                )}
                {deliveries.data.data.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <Link to={`/dashboard/${mode}/events/${d.eventId}`} className="mono">
                        {d.eventId}
                      </Link>
                    </td>
                    <td>
                      <Badge value={d.status} />
                    </td>
                    <td className="num">{d.attemptCount}</td>
                    <td>{d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? '—')}</td>
                    <td>{dateTime(d.createdAt)}</td>
                    <td>{dateTime(d.nextAttemptAt)}</td>
                    <td>
                      {writable && (
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => void act(() => resend.mutateAsync({ id: d.eventId, endpointId: ep.id }), t('endpoint.resent'))}
                        >
                          {rich('endpoint.resend', { id: d.eventId, hidden: (chunks) => <span className="visually-hidden">{chunks}</span> })}
                        </button>
                      )}
                    </td>
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
