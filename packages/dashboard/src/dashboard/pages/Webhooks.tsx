import { type FormEvent, useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { useCan } from '../permissions.tsx';
import { useCreateEndpoint, useEndpoints, useEndpointStats } from '../queries/webhooks.ts';
import { Link } from '../router.tsx';
import { type Endpoint, type EndpointWithSecret, EVENT_TYPES, type Mode } from '../types.ts';
import { Badge, ErrorNotice, PageTitle, SecretField, TableWrap } from '../ui.tsx';

/** The event types an endpoint receives, chosen with checkboxes ("all" when none is ticked). */
export function EventTypesField({ value, onChange, idPrefix }: { value: string[]; onChange: (v: string[]) => void; idPrefix: string }) {
  const { t } = useI18n();
  return (
    <fieldset>
      <legend>{t('webhooks.eventsLegend')}</legend>
      <span className="hint">{t('webhooks.eventsHint')}</span>
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

/** An endpoint's status in words: enabled, or disabled and why. */
export function useEndpointStatus() {
  const { t } = useI18n();
  return (ep: Endpoint) => (ep.enabled ? t('status.enabled') : t('webhooks.disabledWhy', { reason: ep.disabledReason ?? 'manual' }));
}

/** An enabled endpoint whose latest delivery failed shows as failing, with that error. */
function EndpointState({ mode, endpoint }: { mode: Mode; endpoint: Endpoint }) {
  const { t, dateTime } = useI18n();
  const endpointStatus = useEndpointStatus();
  const stats = useEndpointStats(mode, endpoint.id);
  const failure = endpoint.enabled ? stats.data?.lastFailure : null;
  if (!failure) return <Badge value={endpoint.enabled ? 'enabled' : 'disabled'} label={endpointStatus(endpoint)} />;
  return (
    <>
      <Badge value="failed" label={t('webhooks.failing')} />
      <span className="hint">
        {t('webhooks.lastError', { error: failure.error, at: dateTime(failure.at) })} {failure.retrying ? t('webhooks.retrying') : ''}
      </span>
    </>
  );
}

export function Webhooks({ mode }: { mode: Mode }) {
  const can = useCan();
  const { t, rich, dateTime } = useI18n();
  const endpoints = useEndpoints(mode);
  const createEndpoint = useCreateEndpoint(mode);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [created, setCreated] = useState<EndpointWithSecret | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function add(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const ep = await createEndpoint.mutateAsync({
        url,
        ...(description ? { description } : {}),
        enabledEvents: events.length ? events : ['*'],
      });
      setCreated(ep);
      setUrl('');
      setDescription('');
      setEvents([]);
    } catch (err) {
      setError(err);
    }
  }

  return (
    <>
      <PageTitle title={t('webhooks.title')}>{t('webhooks.title')}</PageTitle>
      <p>{rich('webhooks.intro')}</p>
      {created && (
        <section className="notice success" aria-labelledby="created-title">
          <h2 id="created-title" style={{ marginTop: 0 }}>
            {t('webhooks.added')}
          </h2>
          <p>{rich('webhooks.addedText', { url: created.url })}</p>
          <SecretField label={t('webhooks.secret')} value={created.secret} />
          <div className="actions">
            <Link className="button secondary" to={`/dashboard/${mode}/webhooks/${created.id}`}>
              {t('webhooks.open')}
            </Link>
            <button type="button" className="secondary" onClick={() => setCreated(null)}>
              {t('webhooks.done')}
            </button>
          </div>
        </section>
      )}
      {can('webhooks:write') && (
        <form className="card" onSubmit={add} aria-labelledby="add-title">
          <h2 id="add-title" style={{ marginTop: 0 }}>
            {t('webhooks.addTitle')}
          </h2>
          <ErrorNotice error={error} focus />
          <div className="field">
            <label htmlFor="ep-url">
              {t('webhooks.url')}
              <span className="hint">{mode === 'live' ? t('webhooks.urlHintLive') : t('webhooks.urlHintTest')}</span>
            </label>
            <input
              id="ep-url"
              type="url"
              required
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://shop.example.com/webhooks/caisse"
            />
          </div>
          <div className="field">
            <label htmlFor="ep-desc">{t('webhooks.description')}</label>
            <input id="ep-desc" maxLength={1000} value={description} onChange={(e) => setDescription(e.target.value)} />
          </div>
          <EventTypesField value={events} onChange={setEvents} idPrefix="new-ev" />
          <div className="actions">
            <button type="submit">{t('webhooks.add')}</button>
          </div>
        </form>
      )}
      <ErrorNotice error={endpoints.error} />
      {endpoints.data && (
        <TableWrap label={t('webhooks.tableLabel')}>
          <table>
            <caption>{t('webhooks.caption', { mode })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('webhooks.urlColumn')}</th>
                <th scope="col">{t('webhooks.events')}</th>
                <th scope="col">{t('webhooks.status')}</th>
                <th scope="col">{t('webhooks.addedAt')}</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.data.data.length === 0 && (
                <tr>
                  <td colSpan={4} className="empty">
                    {t('webhooks.empty')}
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
                  <td>{ep.enabledEvents.includes('*') ? t('webhooks.allEvents') : ep.enabledEvents.join(', ')}</td>
                  <td>
                    <EndpointState mode={mode} endpoint={ep} />
                  </td>
                  <td>{dateTime(ep.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </>
  );
}
