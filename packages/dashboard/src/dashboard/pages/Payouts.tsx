import { type FormEvent, useEffect, useState } from 'react';
import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import { ApiProblem } from '../api.ts';
import { useCan } from '../permissions.tsx';
import { PagedTable } from '../paging.tsx';
import { useBalance } from '../queries/balance.ts';
import { useCreatePayout, usePayout, usePayouts, usePayoutSchedule, useSavePayoutSchedule } from '../queries/payouts.ts';
import { payoutProviders, useProviderName, useProviders } from '../queries/providers.ts';
import { Link } from '../router.tsx';
import { CURRENCIES, type Mode, type Payout, type PayoutSchedule, WEEK_DAYS } from '../types.ts';
import { Badge, ErrorNotice, PageTitle, StatusNotice, useFocusOnError } from '../ui.tsx';

/** The refusals the page words itself (written in full, so the catalogue check finds every id). */
const ERROR_TEXTS: Record<string, MessageId> = {
  balance_insufficient: 'payouts.error.balanceInsufficient',
  amount_invalid: 'payouts.error.amountInvalid',
  currency_unsupported: 'payouts.error.currencyUnsupported',
  phone_invalid: 'payouts.error.phoneInvalid',
  provider_unsupported: 'payouts.error.providerUnsupported',
  destination_unsupported: 'payouts.error.destinationUnsupported',
  provider_unavailable: 'payouts.error.providerUnavailable',
};

const METHOD_TEXTS: Record<Payout['method'], MessageId> = { manual: 'payouts.method.manual', scheduled: 'payouts.method.scheduled' };

const INTERVAL_TEXTS: Record<PayoutSchedule['interval'], MessageId> = {
  manual: 'payouts.interval.manual',
  daily: 'payouts.interval.daily',
  weekly: 'payouts.interval.weekly',
};

/** The provider's reasons the page explains; the code is shown beside them anyway. */
const FAILURE_TEXTS: Record<string, MessageId> = {
  PAYEE_NOT_FOUND: 'payouts.failure.PAYEE_NOT_FOUND',
  NOT_ENOUGH_FUNDS: 'payouts.failure.NOT_ENOUGH_FUNDS',
  INTERNAL_PROCESSING_ERROR: 'payouts.failure.INTERNAL_PROCESSING_ERROR',
  AMOUNT_MISMATCH: 'payouts.failure.AMOUNT_MISMATCH',
};

/** A day of the week as the locale names it ("friday" → "vendredi"): 2024-01-01 was a Monday. */
function weekdayName(day: (typeof WEEK_DAYS)[number], locale: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, 0, 1 + WEEK_DAYS.indexOf(day)));
}

/** The API's refusal in the page's words: a title for the codes the page knows, and the code (never the API's English detail). */
function PayoutProblem({ error }: { error: unknown }) {
  const { t } = useI18n();
  const ref = useFocusOnError<HTMLDivElement>(error);
  if (!(error instanceof ApiProblem) || error.code === 'connection_error' || error.code === 'session_required') return <ErrorNotice error={error} focus />;
  return (
    <div className="notice error" role="alert" ref={ref} tabIndex={-1}>
      <strong>{t(ERROR_TEXTS[error.code] ?? 'payouts.error.refused')}</strong>
      <p>
        <code>{error.code}</code>
      </p>
    </div>
  );
}

export function Payouts({ mode }: { mode: Mode }) {
  const can = useCan();
  const { t, money, dateTime } = useI18n();
  const balance = useBalance(mode);
  const pages = usePayouts(mode, 'limit=20');

  return (
    <>
      <PageTitle title={t('payouts.title')}>{t('payouts.title')}</PageTitle>
      <p>{t('payouts.intro', { mode })}</p>
      <ErrorNotice error={balance.error} />
      {balance.data && (
        <div className="card" role="region" aria-label={t('payouts.availableNow')}>
          <h2 style={{ marginTop: 0 }}>{t('payouts.availableNow')}</h2>
          {balance.data.balances.length === 0 ? (
            <p className="hint">{t('payouts.nothingAvailable')}</p>
          ) : (
            balance.data.balances.map((b) => (
              <p key={b.currency} className="big-number">
                {money(b.available, b.currency)}
              </p>
            ))
          )}
        </div>
      )}
      {can('payouts:write') && <CreatePayout mode={mode} currencies={balance.data?.balances.map((b) => b.currency) ?? []} />}

      <section aria-labelledby="payouts-title">
        <h2 id="payouts-title">{t('payouts.listTitle')}</h2>
        <PagedTable
          pages={pages}
          label={t('payouts.tableLabel')}
          caption={t('payouts.caption')}
          columns={[
            { label: t('payouts.createdAt') },
            { label: t('payouts.amount'), num: true },
            { label: t('payouts.destination') },
            { label: t('payouts.method') },
            { label: t('payouts.status') },
            { label: t('payouts.payout') },
          ]}
          text={{ loading: t('payouts.loading'), empty: t('payouts.empty'), loadMore: t('dash.loadMore') }}
          row={(p) => (
            <tr key={p.id}>
              <td>{dateTime(p.createdAt)}</td>
              <td className="num">{money(p.amount, p.currency)}</td>
              <td>
                <Destination mode={mode} payout={p} />
              </td>
              <td>{t(METHOD_TEXTS[p.method])}</td>
              <td>
                <Badge value={p.status} />
              </td>
              <td>
                <Link to={`/dashboard/${mode}/payouts/${p.id}`} className="mono">
                  {p.id}
                </Link>
              </td>
            </tr>
          )}
        />
      </section>

      {can('payouts:write') && <ScheduleForm mode={mode} />}
    </>
  );
}

function Destination({ mode, payout }: { mode: Mode; payout: Payout }) {
  const { provider, phoneNumber } = payout.destination;
  const providerName = useProviderName(mode);
  return (
    <>
      {providerName(provider)} <span className="mono">{phoneNumber}</span>
    </>
  );
}

/** Digits and a leading plus only: people type numbers with spaces. */
const phoneOf = (typed: string) => typed.replace(/[\s.-]+/g, '');

function CreatePayout({ mode, currencies }: { mode: Mode; currencies: string[] }) {
  const { t, money } = useI18n();
  const createPayout = useCreatePayout(mode);
  const [form, setForm] = useState({ amount: '', currency: '', provider: '', phoneNumber: '', description: '' });
  const { payable, collectOnly } = payoutProviders(useProviders(mode).data?.data);
  const provider = form.provider || payable[0]?.provider || '';
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<Payout | null>(null);
  const currency = form.currency || currencies[0] || 'XAF';
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });

  async function submit(e: FormEvent) {
    e.preventDefault();
    // One payout per click: the button stays disabled until the answer.
    if (busy) return;
    setBusy(true);
    setError(null);
    setCreated(null);
    try {
      const payout = await createPayout.mutateAsync({
        amount: form.amount.trim().replace(/[\s\u202f]+/g, ''),
        currency,
        destination: { provider, phoneNumber: phoneOf(form.phoneNumber) },
        ...(form.description.trim() ? { description: form.description.trim() } : {}),
      });
      setCreated(payout);
      setForm({ ...form, amount: '', description: '' });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby="po-create-title">
      <h2 id="po-create-title" style={{ marginTop: 0 }}>
        {t('payouts.createTitle')}
      </h2>
      <p className="hint">{t('payouts.createHint')}</p>
      {created && (
        <StatusNotice>
          {t('payouts.created', { amount: money(created.amount, created.currency), phone: created.destination.phoneNumber })}{' '}
          <Link to={`/dashboard/${mode}/payouts/${created.id}`}>{t('payouts.open')}</Link>
        </StatusNotice>
      )}
      <PayoutProblem error={error} />
      <div className="form-row">
        <div className="field">
          <label htmlFor="po-amount">
            {t('payouts.amount')} <span className="hint">{t('payouts.amountHint')}</span>
          </label>
          <input id="po-amount" inputMode="decimal" required autoComplete="off" value={form.amount} onChange={set('amount')} />
        </div>
        <div className="field">
          <label htmlFor="po-currency">{t('payouts.currency')}</label>
          <select id="po-currency" value={currency} onChange={set('currency')}>
            {[...new Set([...currencies, ...CURRENCIES])].map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="po-provider">{t('payouts.provider')}</label>
          <select id="po-provider" value={provider} onChange={set('provider')} required>
            {payable.map((p) => (
              <option key={p.provider} value={p.provider}>
                {p.name}
              </option>
            ))}
            {/* Shown, not chosen: the merchant learns here rather than from a refused payout. */}
            {collectOnly.map((p) => (
              <option key={p.provider} value={p.provider} disabled>
                {t('payouts.providerCollectOnly', { name: p.name })}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="po-phone">
            {t('payouts.phone')} <span className="hint">{t('payouts.phoneHint')}</span>
          </label>
          <input id="po-phone" type="tel" required autoComplete="off" value={form.phoneNumber} onChange={set('phoneNumber')} />
        </div>
      </div>
      {collectOnly.length > 0 && (
        <p className="hint" id="po-provider-note">
          {t('payouts.collectOnlyNote', { names: collectOnly.map((p) => p.name).join(', '), count: collectOnly.length })}
        </p>
      )}
      <div className="field" style={{ marginTop: '1rem' }}>
        <label htmlFor="po-description">
          {t('payouts.description')} <span className="hint">{t('payouts.descriptionHint')}</span>
        </label>
        <input id="po-description" maxLength={200} value={form.description} onChange={set('description')} />
      </div>
      <div className="actions">
        <button type="submit" disabled={busy || !provider}>
          {busy ? t('payouts.creating') : t('payouts.create')}
        </button>
      </div>
    </form>
  );
}

interface ScheduleDraft {
  interval: string;
  weeklyAnchor: string;
  phoneNumber: string;
  minimums: Record<string, string>;
}

function draftOf(s: PayoutSchedule): ScheduleDraft {
  return { interval: s.interval, weeklyAnchor: s.weeklyAnchor ?? 'monday', phoneNumber: s.destination?.phoneNumber ?? '', minimums: { ...s.minimumAmount } };
}

function ScheduleForm({ mode }: { mode: Mode }) {
  const { t, dateTime, locale } = useI18n();
  const loaded = usePayoutSchedule(mode);
  const saveSchedule = useSavePayoutSchedule(mode);
  const { payable } = payoutProviders(useProviders(mode).data?.data);
  const [draft, setDraft] = useState<ScheduleDraft | null>(null);
  const [saved, setSaved] = useState<PayoutSchedule | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (loaded.data) setDraft(draftOf(loaded.data));
  }, [loaded.data]);
  // Saving updates the cached schedule too: only another mode's schedule hides the notice.
  useEffect(() => setSaved(null), [mode]);
  const current = saved ?? loaded.data;

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!draft) return;
    setBusy(true);
    setError(null);
    setSaved(null);
    const minimumAmount = Object.fromEntries(
      Object.entries(draft.minimums)
        .filter(([, v]) => v.trim() !== '')
        .map(([c, v]) => [c, v.trim()]),
    );
    const phone = phoneOf(draft.phoneNumber);
    try {
      const result = await saveSchedule.mutateAsync({
        interval: draft.interval,
        ...(draft.interval === 'weekly' ? { weeklyAnchor: draft.weeklyAnchor } : {}),
        // The number keeps the provider it was saved with; a new one goes to the first that pays out here.
        ...(phone ? { destination: { provider: current?.destination?.provider ?? payable[0]?.provider ?? '', phoneNumber: phone } } : {}),
        minimumAmount,
      });
      setSaved(result);
      setDraft(draftOf(result));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="schedule-title">
      <h2 id="schedule-title" style={{ marginTop: 0 }}>
        {t('payouts.scheduleTitle')}
      </h2>
      <p className="hint">{t('payouts.scheduleIntro')}</p>
      <ErrorNotice error={loaded.error} />
      {!draft || !current ? (
        loaded.isPending && <p role="status">{t('payouts.scheduleLoading')}</p>
      ) : (
        <form onSubmit={save} aria-label={t('payouts.scheduleTitle')}>
          {saved && <StatusNotice>{t('payouts.saved')}</StatusNotice>}
          <PayoutProblem error={error} />
          <fieldset>
            <legend>{t('payouts.interval')}</legend>
            {(['manual', 'daily', 'weekly'] as const).map((i) => (
              <label key={i} className="check">
                <input type="radio" name="po-interval" value={i} checked={draft.interval === i} onChange={() => setDraft({ ...draft, interval: i })} />
                {t(INTERVAL_TEXTS[i])}
              </label>
            ))}
          </fieldset>
          <div className="form-row" style={{ marginTop: '1rem' }}>
            {draft.interval === 'weekly' && (
              <div className="field">
                <label htmlFor="ps-weekday">{t('payouts.weekday')}</label>
                <select id="ps-weekday" value={draft.weeklyAnchor} onChange={(e) => setDraft({ ...draft, weeklyAnchor: e.target.value })}>
                  {WEEK_DAYS.map((d) => (
                    <option key={d} value={d}>
                      {weekdayName(d, locale)}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <div className="field">
              <label htmlFor="ps-phone">
                {t('payouts.scheduleDestination')} <span className="hint">{t('payouts.phoneHint')}</span>
              </label>
              <input
                id="ps-phone"
                type="tel"
                autoComplete="off"
                required={draft.interval !== 'manual'}
                value={draft.phoneNumber}
                onChange={(e) => setDraft({ ...draft, phoneNumber: e.target.value })}
              />
            </div>
          </div>
          <fieldset style={{ marginTop: '1rem' }}>
            <legend>{t('payouts.minimums')}</legend>
            <p className="hint">{t('payouts.minimumsHint')}</p>
            <div className="form-row">
              {CURRENCIES.map((c) => (
                <div className="field" key={c}>
                  <label htmlFor={`ps-min-${c}`}>{t('payouts.minimumFor', { currency: c })}</label>
                  <input
                    id={`ps-min-${c}`}
                    inputMode="decimal"
                    autoComplete="off"
                    value={draft.minimums[c] ?? ''}
                    onChange={(e) => setDraft({ ...draft, minimums: { ...draft.minimums, [c]: e.target.value } })}
                  />
                </div>
              ))}
            </div>
          </fieldset>
          <dl className="summary" style={{ marginTop: '1rem' }}>
            <dt>{t('payouts.nextRun')}</dt>
            <dd>{current.nextRunAt ? dateTime(current.nextRunAt) : t('payouts.noNextRun')}</dd>
          </dl>
          <div className="actions">
            <button type="submit" disabled={busy}>
              {busy ? t('payouts.saving') : t('payouts.save')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

export function PayoutDetail({ mode, id }: { mode: Mode; id: string }) {
  const { t, money, dateTime } = useI18n();
  const loaded = usePayout(mode, id);
  const p = loaded.data;
  const pending = p?.status === 'PENDING';

  const back = (
    <p>
      <Link to={`/dashboard/${mode}/payouts`}>{t('payouts.allPayouts')}</Link>
    </p>
  );
  if (!p) {
    return (
      <>
        {back}
        <PageTitle title={t('payouts.payout')}>{t('payouts.payout')}</PageTitle>
        <ErrorNotice error={loaded.error} />
        {!loaded.error && <p role="status">{t('payouts.detailLoading')}</p>}
      </>
    );
  }
  return (
    <>
      {back}
      <PageTitle title={t('payouts.docTitle', { id: p.id })}>
        {t('payouts.heading', { amount: money(p.amount, p.currency) })} <Badge value={p.status} />
      </PageTitle>
      <ErrorNotice error={loaded.error} />
      {pending && <StatusNotice tone="info">{t('payouts.waiting')}</StatusNotice>}
      {p.status === 'FAILED' && <div className="notice warning">{t('payouts.failedNote')}</div>}
      <section className="card" aria-labelledby="po-summary-title">
        <h2 id="po-summary-title" style={{ marginTop: 0 }}>
          {t('payouts.summary')}
        </h2>
        <dl className="summary">
          <dt>{t('payouts.id')}</dt>
          <dd className="mono">{p.id}</dd>
          <dt>{t('payouts.status')}</dt>
          <dd>
            <Badge value={p.status} />
          </dd>
          <dt>{t('payouts.amount')}</dt>
          <dd>{money(p.amount, p.currency)}</dd>
          <dt>{t('payouts.destination')}</dt>
          <dd>
            <Destination mode={mode} payout={p} />
          </dd>
          <dt>{t('payouts.method')}</dt>
          <dd>{t(METHOD_TEXTS[p.method])}</dd>
          <dt>{t('payment.connector')}</dt>
          <dd>
            <code>{p.connector}</code> <span className="mono">{p.providerAccount}</span>
          </dd>
          <dt>{t('payouts.descriptionLabel')}</dt>
          <dd>{p.description ?? '—'}</dd>
          {p.failureReason && (
            <>
              <dt>{t('payouts.failureReason')}</dt>
              <dd>
                {FAILURE_TEXTS[p.failureReason] && <>{t(FAILURE_TEXTS[p.failureReason] as MessageId)} </>}
                <code>{p.failureReason}</code>
              </dd>
            </>
          )}
          <dt>{t('payouts.createdAt')}</dt>
          <dd>{dateTime(p.createdAt)}</dd>
          <dt>{t('payouts.updated')}</dt>
          <dd>{dateTime(p.updatedAt)}</dd>
          <dt>{t('payouts.completed')}</dt>
          <dd>{dateTime(p.completedAt)}</dd>
        </dl>
        <div className="actions">
          <button type="button" className="secondary" onClick={() => void loaded.refetch()}>
            {t('dash.refresh')}
          </button>
        </div>
      </section>
    </>
  );
}
