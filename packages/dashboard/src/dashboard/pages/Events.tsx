import { type FormEvent, useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { PagedTable } from '../paging.tsx';
import { useEvent, useEvents, useResendEvent } from '../queries/events.ts';
import { Link, navigate } from '../router.tsx';
import { type AttemptDetail, type DeliveryDetail, EVENT_TYPES, type Mode, type WebhookEvent } from '../types.ts';
import { Badge, ErrorNotice, PageTitle, StatusNotice } from '../ui.tsx';

interface Filters {
  type: string;
  failed: boolean;
}

/** The list's query string: the filters as the API names them, a page of 20 (the hook adds the cursor). */
function queryOf(filters: Filters) {
  const q = new URLSearchParams({ limit: '20' });
  if (filters.type) q.set('type', filters.type);
  if (filters.failed) q.set('deliveryStatus', 'failed');
  return q.toString();
}

/** What an event is about, as a link: its payment (the payout's page for a payout event). */
function Subject({ mode, event }: { mode: Mode; event: WebhookEvent }) {
  const payment = 'paymentIntent' in event.data ? event.data.paymentIntent.id : undefined;
  const payout = 'payout' in event.data ? event.data.payout.id : undefined;
  if (typeof payment === 'string') {
    return (
      <Link to={`/dashboard/${mode}/payments/${payment}`} className="mono">
        {payment}
      </Link>
    );
  }
  if (typeof payout === 'string') {
    return (
      <Link to={`/dashboard/${mode}/payouts/${payout}`} className="mono">
        {payout}
      </Link>
    );
  }
  return <span className="hint">—</span>;
}

/** The Events page: every event of the mode, newest first, by type and "failed deliveries only". */
export function Events({ mode, search }: { mode: Mode; search: string }) {
  const { t, dateTime } = useI18n();
  const params = new URLSearchParams(search);
  const filters: Filters = { type: params.get('type') ?? '', failed: params.get('failed') === '1' };
  const [draft, setDraft] = useState(filters);
  const pages = useEvents(mode, queryOf(filters));

  function go(next: Filters) {
    const q = new URLSearchParams();
    if (next.type) q.set('type', next.type);
    if (next.failed) q.set('failed', '1');
    navigate(`/dashboard/${mode}/events${q.size ? `?${q}` : ''}`);
  }
  function apply(e: FormEvent) {
    e.preventDefault();
    go(draft);
  }

  return (
    <>
      <PageTitle title={t('events.title')}>{t('events.title')}</PageTitle>
      <p className="hint">{t('events.intro')}</p>
      <form className="card" onSubmit={apply} aria-label={t('events.filter')}>
        <div className="form-row">
          <div className="field">
            <label htmlFor="ev-type">{t('events.type')}</label>
            <select id="ev-type" value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.target.value })}>
              <option value="">{t('events.anyType')}</option>
              {EVENT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="check">
              <input type="checkbox" checked={draft.failed} onChange={(e) => setDraft({ ...draft, failed: e.target.checked })} />
              {t('events.failedOnly')}
            </label>
          </div>
          <div className="actions" style={{ marginTop: 0 }}>
            <button type="submit">{t('events.apply')}</button>
            {(filters.type || filters.failed) && (
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setDraft({ type: '', failed: false });
                  go({ type: '', failed: false });
                }}
              >
                {t('events.clear')}
              </button>
            )}
          </div>
        </div>
      </form>
      <PagedTable
        pages={pages}
        label={t('events.title')}
        caption={t('events.caption')}
        columns={[{ label: t('events.created') }, { label: t('events.type') }, { label: t('events.event') }, { label: t('events.subject') }]}
        text={{ loading: t('events.loading'), empty: filters.failed ? t('events.emptyFailed') : t('events.empty'), loadMore: t('dash.loadMore') }}
        row={(e) => (
          <tr key={e.id}>
            <td>{dateTime(e.createdAt)}</td>
            <td>{e.type}</td>
            <td>
              <Link to={`/dashboard/${mode}/events/${e.id}`} className="mono">
                {e.id}
              </Link>
            </td>
            <td>
              <Subject mode={mode} event={e} />
            </td>
          </tr>
        )}
      />
    </>
  );
}

/** A block of text as sent or received, scrollable by keyboard too. */
function Excerpt({ label, text }: { label: string; text: string }) {
  return (
    <pre className="excerpt" tabIndex={0} role="region" aria-label={label}>
      {text}
    </pre>
  );
}

function Attempt({ attempt, n }: { attempt: AttemptDetail; n: number }) {
  const { t, dateTime } = useI18n();
  const answer = attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : (attempt.error ?? '—');
  return (
    <li className="attempt">
      <h4>
        {t('event.attemptN', { n })} <Badge value={attempt.succeeded ? 'succeeded' : 'failed'} />
      </h4>
      <dl className="summary">
        <dt>{t('event.attemptedAt')}</dt>
        <dd>{dateTime(attempt.attemptedAt)}</dd>
        <dt>{t('event.answer')}</dt>
        <dd className="mono">{answer}</dd>
        <dt>{t('event.duration')}</dt>
        <dd>{t('event.ms', { ms: attempt.latencyMs })}</dd>
        {attempt.statusCode !== null && attempt.error && attempt.error !== answer && (
          <>
            <dt>{t('event.error')}</dt>
            <dd>{attempt.error}</dd>
          </>
        )}
      </dl>
      {attempt.requestHeaders ? (
        <details>
          <summary>{t('event.request')}</summary>
          <Excerpt
            label={t('event.requestHeaders', { n })}
            text={Object.entries(attempt.requestHeaders)
              .map(([k, v]) => `${k}: ${v}`)
              .join('\n')}
          />
          {attempt.requestBodyExcerpt !== null && <Excerpt label={t('event.requestBody', { n })} text={attempt.requestBodyExcerpt} />}
        </details>
      ) : (
        <p className="hint">{t('event.notSent')}</p>
      )}
      <h5>{t('event.response')}</h5>
      {attempt.responseExcerpt !== null ? (
        attempt.responseExcerpt === '' ? (
          <p className="hint">{t('event.emptyResponse')}</p>
        ) : (
          <Excerpt label={t('event.responseBody', { n })} text={attempt.responseExcerpt} />
        )
      ) : (
        <p className="hint">{attempt.statusCode !== null ? t('event.responseNotKept') : t('event.noResponse')}</p>
      )}
    </li>
  );
}

function Delivery({ delivery }: { delivery: DeliveryDetail }) {
  const { t, dateTime } = useI18n();
  return (
    <li className="card">
      <p style={{ marginTop: 0 }}>
        <Badge value={delivery.status} /> {t('event.deliveryCreated', { at: dateTime(delivery.createdAt) })}
        {delivery.status === 'pending' && delivery.nextAttemptAt && (
          <span className="hint"> · {t('event.nextTry', { at: dateTime(delivery.nextAttemptAt) })}</span>
        )}
      </p>
      {delivery.attempts.length === 0 ? (
        <p className="hint">{t('event.noAttempt')}</p>
      ) : (
        <ol className="attempts">
          {delivery.attempts.map((a, i) => (
            <Attempt key={a.attemptedAt + i} attempt={a} n={i + 1} />
          ))}
        </ol>
      )}
    </li>
  );
}

/** One event: its payload as sent, and per endpoint its deliveries (a resend adds one) and their attempts. */
export function EventDetail({ mode, id }: { mode: Mode; id: string }) {
  const { t, rich, dateTime } = useI18n();
  const loaded = useEvent(mode, id);
  const resendEvent = useResendEvent(mode);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');

  async function resend(endpointId?: string) {
    setError(null);
    setDone('');
    try {
      const res = await resendEvent.mutateAsync({ id, endpointId });
      setDone(t('event.resent', { count: res.data.length }));
    } catch (err) {
      setError(err);
    }
  }

  const back = (
    <p>
      <Link to={`/dashboard/${mode}/events`}>{t('event.all')}</Link>
    </p>
  );
  if (loaded.error) {
    return (
      <>
        {back}
        <PageTitle title={t('event.title')}>{t('event.title')}</PageTitle>
        <ErrorNotice error={loaded.error} />
      </>
    );
  }
  const detail = loaded.data;
  if (!detail) return <p role="status">{t('event.loading')}</p>;
  const e = detail.event;
  // Deliveries per endpoint, in the order the newest delivery to each came.
  const byEndpoint = new Map<string, DeliveryDetail[]>();
  for (const d of detail.deliveries) byEndpoint.set(d.endpointId, [...(byEndpoint.get(d.endpointId) ?? []), d]);
  let pretty = detail.payload;
  try {
    pretty = JSON.stringify(JSON.parse(detail.payload), null, 2);
  } catch {
    /* shown as stored */
  }

  return (
    <>
      {back}
      <PageTitle title={t('event.docTitle', { id: e.id })}>{e.type}</PageTitle>
      {done && <StatusNotice>{done}</StatusNotice>}
      <ErrorNotice error={error} />
      <section className="card" aria-labelledby="event-summary">
        <h2 id="event-summary" style={{ marginTop: 0 }}>
          {t('event.summary')}
        </h2>
        <dl className="summary">
          <dt>{t('event.id')}</dt>
          <dd className="mono">{e.id}</dd>
          <dt>{t('events.created')}</dt>
          <dd>{dateTime(e.createdAt)}</dd>
          <dt>{t('events.subject')}</dt>
          <dd>
            <Subject mode={mode} event={e} />
          </dd>
        </dl>
        <div className="actions">
          <button type="button" onClick={() => void resend()}>
            {t('event.resendAll')}
          </button>
        </div>
      </section>

      <section aria-labelledby="event-payload">
        <h2 id="event-payload">{t('event.payload')}</h2>
        <p className="hint">{t('event.payloadHint')}</p>
        <Excerpt label={t('event.payloadLabel')} text={pretty} />
      </section>

      <section aria-labelledby="event-deliveries">
        <h2 id="event-deliveries">{t('event.deliveries')}</h2>
        {byEndpoint.size === 0 && (
          <p className="hint">{rich('event.noDeliveries', { link: (chunks) => <Link to={`/dashboard/${mode}/webhooks`}>{chunks}</Link> })}</p>
        )}
        {[...byEndpoint].map(([endpointId, deliveries]) => {
          const endpoint = deliveries[0]?.endpoint;
          const headingId = `ep-${endpointId}`;
          return (
            <section key={endpointId} aria-labelledby={headingId} className="endpoint-deliveries">
              <h3 id={headingId}>
                <Link to={`/dashboard/${mode}/webhooks/${endpointId}`} className="mono">
                  {endpoint?.url ?? endpointId}
                </Link>
              </h3>
              <div className="actions" style={{ marginTop: 0 }}>
                <button type="button" className="secondary" onClick={() => void resend(endpointId)}>
                  {rich('event.resendTo', { url: endpoint?.url ?? endpointId, hidden: (chunks) => <span className="visually-hidden">{chunks}</span> })}
                </button>
              </div>
              <ul className="deliveries">
                {deliveries.map((d) => (
                  <Delivery key={d.id} delivery={d} />
                ))}
              </ul>
            </section>
          );
        })}
      </section>
    </>
  );
}
