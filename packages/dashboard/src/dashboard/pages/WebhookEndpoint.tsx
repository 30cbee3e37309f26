import { useState } from 'react';
import { formatDateTime } from '../../shared/format.ts';
import { api } from '../api.ts';
import { Link, navigate } from '../router.tsx';
import type { Delivery, Endpoint, EndpointSecret, EndpointWithSecret, List, Mode } from '../types.ts';
import { Badge, ConfirmButton, ErrorNotice, PageTitle, SecretField, StatusNotice, TableWrap, useLoad } from '../ui.tsx';
import { EventTypesField } from './Webhooks.tsx';

const ROLL_GRACE = [
  { seconds: 0, label: 'Stop the old secret now' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 24 * 3600, label: '24 hours' },
  { seconds: 7 * 24 * 3600, label: '7 days' },
];

export function WebhookEndpoint({ mode, id }: { mode: Mode; id: string }) {
  const key = `${mode}/${id}`;
  const endpoint = useLoad(() => api<Endpoint>('GET', `/${mode}/webhook-endpoints/${encodeURIComponent(id)}`), key);
  const deliveries = useLoad(() => api<List<Delivery>>('GET', `/${mode}/webhook-endpoints/${encodeURIComponent(id)}/deliveries?limit=50`), key);
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
      <Link to={`/dashboard/${mode}/webhooks`}>← All endpoints</Link>
    </p>
  );
  const ep = endpoint.data;
  if (!ep) {
    return (
      <>
        {back}
        <PageTitle title="Webhook endpoint">Webhook endpoint</PageTitle>
        {endpoint.error ? <ErrorNotice error={endpoint.error} /> : <p role="status">Loading…</p>}
      </>
    );
  }
  const chosen = events ?? (ep.enabledEvents.includes('*') ? [] : ep.enabledEvents);

  return (
    <>
      {back}
      <PageTitle title="Webhook endpoint">Webhook endpoint</PageTitle>
      <p className="mono">{ep.url}</p>
      {done && <StatusNotice>{done}</StatusNotice>}
      <ErrorNotice error={error} />
      <section className="card" aria-labelledby="ep-summary">
        <h2 id="ep-summary" style={{ marginTop: 0 }}>
          Details
        </h2>
        <dl className="summary">
          <dt>Endpoint id</dt>
          <dd className="mono">{ep.id}</dd>
          <dt>Status</dt>
          <dd>
            <Badge value={ep.enabled ? 'enabled' : 'disabled'} label={ep.enabled ? 'enabled' : `disabled (${ep.disabledReason ?? 'manual'})`} />
          </dd>
          <dt>Description</dt>
          <dd>{ep.description ?? '—'}</dd>
          <dt>Added</dt>
          <dd>{formatDateTime(ep.createdAt)}</dd>
        </dl>
        <div className="actions">
          <button
            type="button"
            className="secondary"
            onClick={() =>
              void act(() => api('PATCH', `/${mode}/webhook-endpoints/${ep.id}`, { enabled: !ep.enabled }), ep.enabled ? 'The endpoint is disabled.' : 'The endpoint is enabled again.').then(
                () => endpoint.reload(),
              )
            }
          >
            {ep.enabled ? 'Disable endpoint' : 'Enable endpoint'}
          </button>
          <ConfirmButton
            label="Delete endpoint"
            confirmLabel="Yes, delete it"
            onConfirm={() => void act(() => api('DELETE', `/${mode}/webhook-endpoints/${ep.id}`), 'Deleted.').then((r) => r !== undefined && navigate(`/dashboard/${mode}/webhooks`))}
          />
        </div>
      </section>

      <section className="card" aria-labelledby="ep-events">
        <h2 id="ep-events" style={{ marginTop: 0 }}>
          Event types
        </h2>
        <EventTypesField value={chosen} onChange={setEvents} idPrefix="ep-ev" />
        <div className="actions">
          <button
            type="button"
            onClick={() =>
              void act(() => api('PATCH', `/${mode}/webhook-endpoints/${ep.id}`, { enabledEvents: chosen.length ? chosen : ['*'] }), 'Event types saved.').then(() => {
                setEvents(null);
                endpoint.reload();
              })
            }
          >
            Save event types
          </button>
        </div>
      </section>

      <section className="card" aria-labelledby="ep-secret">
        <h2 id="ep-secret" style={{ marginTop: 0 }}>
          Signing secret
        </h2>
        {secret ? (
          <>
            <SecretField label="Current signing secret" value={secret.secret} />
            {secret.rollingSecrets.map((r) => (
              <SecretField key={r.secret} label={`Previous secret, still signing until ${formatDateTime(r.expiresAt)}`} value={r.secret} />
            ))}
            <button type="button" className="secondary" onClick={() => setSecret(null)}>
              Hide secret
            </button>
          </>
        ) : (
          <button type="button" className="secondary" onClick={() => void act(() => api<EndpointSecret>('POST', `/${mode}/webhook-endpoints/${ep.id}/reveal-secret`, {}), '').then((s) => s && setSecret(s))}>
            Reveal secret
          </button>
        )}
        <div className="form-row" style={{ marginTop: '1rem' }}>
          <div className="field">
            <label htmlFor="roll-grace">Keep the previous secret signing for</label>
            <select id="roll-grace" value={grace} onChange={(e) => setGrace(e.target.value)}>
              {ROLL_GRACE.map((g) => (
                <option key={g.seconds} value={g.seconds}>
                  {g.label}
                </option>
              ))}
            </select>
          </div>
          <div className="actions" style={{ marginTop: 0 }}>
            <button
              type="button"
              onClick={() =>
                void act(() => api<EndpointWithSecret>('POST', `/${mode}/webhook-endpoints/${ep.id}/roll-secret`, { expiresIn: Number(grace) }), 'A new secret signs from now on.').then(async (r) => {
                  if (r) setSecret(await api<EndpointSecret>('POST', `/${mode}/webhook-endpoints/${ep.id}/reveal-secret`, {}));
                })
              }
            >
              Roll secret
            </button>
          </div>
        </div>
      </section>

      <section aria-labelledby="ep-deliveries">
        <div className="actions">
          <h2 id="ep-deliveries" style={{ margin: 0 }}>
            Deliveries
          </h2>
          <button type="button" className="secondary" onClick={() => deliveries.reload()}>
            Refresh
          </button>
        </div>
        <ErrorNotice error={deliveries.error} />
        {deliveries.data && (
          <TableWrap label="Deliveries to this endpoint">
            <table>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Attempts
                  </th>
                  <th scope="col">Last answer</th>
                  <th scope="col">Created</th>
                  <th scope="col">Next try</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.data.length === 0 && (
                  <tr>
                    <td colSpan={7} className="empty">
                      No deliveries yet.
                    </td>
                  </tr>
                )}
                {deliveries.data.data.map((d) => (
                  <tr key={d.id}>
                    <td className="mono">{d.eventId}</td>
                    <td>
                      <Badge value={d.status} />
                    </td>
                    <td className="num">{d.attemptCount}</td>
                    <td>{d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? '—')}</td>
                    <td>{formatDateTime(d.createdAt)}</td>
                    <td>{formatDateTime(d.nextAttemptAt)}</td>
                    <td>
                      <button
                        type="button"
                        className="secondary"
                        onClick={() => void act(() => api('POST', `/${mode}/events/${d.eventId}/resend`, { endpointId: ep.id }), 'The event was queued again for this endpoint.').then(() => deliveries.reload())}
                      >
                        Resend<span className="visually-hidden"> event {d.eventId}</span>
                      </button>
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
