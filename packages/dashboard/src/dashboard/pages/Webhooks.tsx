import { type FormEvent, useState } from 'react';
import { formatDateTime } from '../../shared/format.ts';
import { api } from '../api.ts';
import { Link } from '../router.tsx';
import { type Endpoint, type EndpointWithSecret, EVENT_TYPES, type List, type Mode } from '../types.ts';
import { Badge, ErrorNotice, PageTitle, SecretField, TableWrap, useLoad } from '../ui.tsx';

/** The event types an endpoint receives, chosen with checkboxes ("all" when none is ticked). */
export function EventTypesField({ value, onChange, idPrefix }: { value: string[]; onChange: (v: string[]) => void; idPrefix: string }) {
  return (
    <fieldset>
      <legend>Events to send</legend>
      <span className="hint">Tick none to receive every event type.</span>
      {EVENT_TYPES.map((t) => (
        <label key={t} className="check" htmlFor={`${idPrefix}-${t}`}>
          <input
            id={`${idPrefix}-${t}`}
            type="checkbox"
            checked={value.includes(t)}
            onChange={(e) => onChange(e.target.checked ? [...value, t] : value.filter((x) => x !== t))}
          />
          <code>{t}</code>
        </label>
      ))}
    </fieldset>
  );
}

export function Webhooks({ mode }: { mode: Mode }) {
  const endpoints = useLoad(() => api<List<Endpoint>>('GET', `/${mode}/webhook-endpoints?limit=100`), mode);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [created, setCreated] = useState<EndpointWithSecret | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function add(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const ep = await api<EndpointWithSecret>('POST', `/${mode}/webhook-endpoints`, {
        url,
        ...(description ? { description } : {}),
        enabledEvents: events.length ? events : ['*'],
      });
      setCreated(ep);
      setUrl('');
      setDescription('');
      setEvents([]);
      endpoints.reload();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <>
      <PageTitle title="Webhooks">Webhooks</PageTitle>
      <p>
        Caisse POSTs each event to your endpoints, signed with the endpoint&apos;s secret in the <code>pay-signature</code> header. Fulfil orders from
        these events, not from the browser.
      </p>
      {created && (
        <section className="notice success" aria-labelledby="created-title">
          <h2 id="created-title" style={{ marginTop: 0 }}>
            Endpoint added
          </h2>
          <p>
            Events now go to <code>{created.url}</code>. Verify them with this signing secret (you can reveal it again on the endpoint&apos;s page).
          </p>
          <SecretField label="Signing secret" value={created.secret} />
          <div className="actions">
            <Link className="button secondary" to={`/dashboard/${mode}/webhooks/${created.id}`}>
              Open the endpoint
            </Link>
            <button type="button" className="secondary" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </section>
      )}
      <form className="card" onSubmit={add} aria-labelledby="add-title">
        <h2 id="add-title" style={{ marginTop: 0 }}>
          Add an endpoint
        </h2>
        <ErrorNotice error={error} />
        <div className="field">
          <label htmlFor="ep-url">
            Endpoint URL
            <span className="hint">{mode === 'live' ? 'https, on a public address.' : 'http or https; test mode may use a local address.'}</span>
          </label>
          <input id="ep-url" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://shop.example.com/webhooks/caisse" />
        </div>
        <div className="field">
          <label htmlFor="ep-desc">Description (optional)</label>
          <input id="ep-desc" maxLength={1000} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <EventTypesField value={events} onChange={setEvents} idPrefix="new-ev" />
        <div className="actions">
          <button type="submit">Add endpoint</button>
        </div>
      </form>
      <ErrorNotice error={endpoints.error} />
      {endpoints.data && (
        <TableWrap label="Webhook endpoints">
          <table>
            <caption>{mode === 'test' ? 'Test' : 'Live'} endpoints</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Added</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.data.data.length === 0 && (
                <tr>
                  <td colSpan={4} className="empty">
                    No endpoints yet.
                  </td>
                </tr>
              )}
              {endpoints.data.data.map((ep) => (
                <tr key={ep.id}>
                  <td>
                    <Link to={`/dashboard/${mode}/webhooks/${ep.id}`} className="mono">
                      {ep.url}
                    </Link>
                    {ep.description && <span className="hint">{ep.description}</span>}
                  </td>
                  <td>{ep.enabledEvents.includes('*') ? 'all events' : ep.enabledEvents.join(', ')}</td>
                  <td>
                    <Badge value={ep.enabled ? 'enabled' : 'disabled'} label={ep.enabled ? 'enabled' : `disabled (${ep.disabledReason ?? 'manual'})`} />
                  </td>
                  <td>{formatDateTime(ep.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </>
  );
}
