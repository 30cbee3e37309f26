import { type FormEvent, useEffect, useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api, ApiProblem } from '../api.ts';
import { PagedTable, usePages } from '../paging.tsx';
import { Link } from '../router.tsx';
import { type Balance, CURRENCIES, type List, type Mode, type Payout, type PayoutSchedule, WEEK_DAYS } from '../types.ts';
import { Badge, ErrorNotice, PageTitle, StatusNotice, useLoad } from '../ui.tsx';

/** Every text of the Payouts pages, in one place (for a translation to replace). */
const TEXT = {
  title: 'Payouts',
  intro: (mode: Mode) =>
    mode === 'test'
      ? 'Send money from your available balance to a mobile-money number. Test mode pays through the MoMo sandbox: no real money moves.'
      : 'Send money from your available balance to a mobile-money number.',
  availableNow: 'Available now',
  nothingAvailable: 'Nothing is available to pay out yet: payments become available after their settlement date.',
  createTitle: 'New payout',
  createHint: 'The money leaves your available balance at once; if the provider refuses the payout, it comes back.',
  amount: 'Amount',
  amountHint: 'In the currency’s units, e.g. 5000',
  currency: 'Currency',
  provider: 'Provider',
  providers: { mtn_momo: 'MTN MoMo' } as Record<string, string>,
  phone: 'Mobile-money number',
  phoneHint: 'International format, e.g. +237670000001',
  description: 'Description (optional)',
  descriptionLabel: 'Description',
  descriptionHint: 'Shown in your statement and to the payee',
  create: 'Pay out',
  creating: 'Paying out…',
  created: (amount: string, phone: string) => `Payout of ${amount} to ${phone} created. It is pending until the provider confirms it.`,
  open: 'Open the payout',
  // The API's `detail` (English) follows each title; the code stays visible for support.
  errors: {
    balance_insufficient: 'Not enough available balance',
    amount_invalid: 'The amount is not valid',
    currency_unsupported: 'This currency is not supported',
    phone_invalid: 'The mobile-money number is not valid',
    provider_unsupported: 'This provider is not supported',
    provider_unavailable: 'The provider is not available',
  } as Record<string, string>,
  errorTitle: 'The payout was refused',
  listTitle: 'Payout history',
  tableLabel: 'Payouts',
  caption: 'Payouts, newest first',
  createdAt: 'Created',
  destination: 'Destination',
  method: 'Method',
  methods: { manual: 'Manual', scheduled: 'Scheduled' } as Record<string, string>,
  status: 'Status',
  statuses: { PENDING: 'pending', PAID: 'paid', FAILED: 'failed' } as Record<string, string>,
  payout: 'Payout',
  empty: 'No payouts yet.',
  loading: 'Loading payouts…',
  loadMore: 'Load more',
  scheduleTitle: 'Automatic payouts',
  scheduleIntro: 'On a schedule, the whole available balance of each currency is paid out to one number, when it reaches the minimum. Nothing is paid while a balance is zero or negative.',
  interval: 'How often',
  intervals: {
    manual: 'Manual only: no automatic payouts',
    daily: 'Daily, at 00:00 UTC',
    weekly: 'Weekly, at 00:00 UTC on the chosen day',
  } as Record<string, string>,
  weekday: 'Day of the week',
  weekdays: {
    monday: 'Monday',
    tuesday: 'Tuesday',
    wednesday: 'Wednesday',
    thursday: 'Thursday',
    friday: 'Friday',
    saturday: 'Saturday',
    sunday: 'Sunday',
  } as Record<string, string>,
  scheduleDestination: 'Pay out to (mobile-money number)',
  minimums: 'Minimum per currency',
  minimumsHint: 'Optional: the least balance worth paying out. Empty: any positive balance.',
  minimumFor: (currency: string) => `Minimum in ${currency}`,
  save: 'Save schedule',
  saving: 'Saving…',
  saved: 'The payout schedule was saved.',
  nextRun: 'Next automatic payout',
  noNextRun: 'None: payouts are manual',
  scheduleLoading: 'Loading the schedule…',
  // The detail page
  allPayouts: '← All payouts',
  detailLoading: 'Loading the payout…',
  summary: 'Summary',
  payoutId: 'Payout id',
  failureReason: 'Failure reason',
  failureReasons: {
    PAYEE_NOT_FOUND: 'The number has no mobile-money account',
    NOT_ENOUGH_FUNDS: 'The provider’s account could not cover it',
    INTERNAL_PROCESSING_ERROR: 'The provider’s error',
    AMOUNT_MISMATCH: 'The provider paid another amount (see reconciliation)',
  } as Record<string, string>,
  updated: 'Last change',
  completed: 'Completed',
  waiting: 'Waiting for the provider: this page updates by itself.',
  failedNote: 'The money is back in your available balance.',
  refresh: 'Refresh',
  none: '—',
};

/** The API's refusal in words: a title for the codes the page knows, the API's detail, the code. */
function PayoutProblem({ error }: { error: unknown }) {
  if (!(error instanceof ApiProblem) || error.code === 'connection_error' || error.code === 'session_required') return <ErrorNotice error={error} />;
  return (
    <div className="notice error" role="alert">
      <strong>{TEXT.errors[error.code] ?? TEXT.errorTitle}</strong>
      <p>
        {error.message} <code>{error.code}</code>
      </p>
    </div>
  );
}

export function Payouts({ mode }: { mode: Mode }) {
  const { money, dateTime } = useI18n();
  const balance = useLoad(() => api<Balance>('GET', `/${mode}/balance`), mode);
  const pages = usePages((startingAfter) => api<List<Payout>>('GET', `/${mode}/payouts?limit=20${startingAfter ? `&startingAfter=${startingAfter}` : ''}`), mode);

  return (
    <>
      <PageTitle title={TEXT.title}>{TEXT.title}</PageTitle>
      <p>{TEXT.intro(mode)}</p>
      <ErrorNotice error={balance.error} />
      {balance.data && (
        <div className="card" role="region" aria-label={TEXT.availableNow}>
          <h2 style={{ marginTop: 0 }}>{TEXT.availableNow}</h2>
          {balance.data.balances.length === 0 ? (
            <p className="hint">{TEXT.nothingAvailable}</p>
          ) : (
            balance.data.balances.map((b) => (
              <p key={b.currency} className="big-number">
                {money(b.available, b.currency)}
              </p>
            ))
          )}
        </div>
      )}
      <CreatePayout
        mode={mode}
        currencies={balance.data?.balances.map((b) => b.currency) ?? []}
        onCreated={() => {
          balance.reload();
          pages.reload();
        }}
      />

      <section aria-labelledby="payouts-title">
        <h2 id="payouts-title">{TEXT.listTitle}</h2>
        <PagedTable
          pages={pages}
          label={TEXT.tableLabel}
          caption={TEXT.caption}
          columns={[{ label: TEXT.createdAt }, { label: TEXT.amount, num: true }, { label: TEXT.destination }, { label: TEXT.method }, { label: TEXT.status }, { label: TEXT.payout }]}
          text={{ loading: TEXT.loading, empty: TEXT.empty, loadMore: TEXT.loadMore }}
          row={(p) => (
            <tr key={p.id}>
              <td>{dateTime(p.createdAt)}</td>
              <td className="num">{money(p.amount, p.currency)}</td>
              <td>
                <Destination payout={p} />
              </td>
              <td>{TEXT.methods[p.method]}</td>
              <td>
                <Badge value={p.status} label={TEXT.statuses[p.status]} />
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

      <ScheduleForm mode={mode} />
    </>
  );
}

function Destination({ payout }: { payout: Payout }) {
  return (
    <>
      {TEXT.providers[payout.destination.provider] ?? payout.destination.provider} <span className="mono">{payout.destination.phoneNumber}</span>
    </>
  );
}

/** Digits and a leading plus only: people type numbers with spaces. */
const phoneOf = (typed: string) => typed.replace(/[\s.-]+/g, '');

function CreatePayout({ mode, currencies, onCreated }: { mode: Mode; currencies: string[]; onCreated: () => void }) {
  const { money } = useI18n();
  const [form, setForm] = useState({ amount: '', currency: '', phoneNumber: '', description: '' });
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
      const payout = await api<Payout>('POST', `/${mode}/payouts`, {
        amount: form.amount.trim().replace(/[\s\u202f]+/g, ''),
        currency,
        destination: { provider: 'mtn_momo', phoneNumber: phoneOf(form.phoneNumber) },
        ...(form.description.trim() ? { description: form.description.trim() } : {}),
      });
      setCreated(payout);
      setForm({ ...form, amount: '', description: '' });
      onCreated();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby="po-create-title">
      <h2 id="po-create-title" style={{ marginTop: 0 }}>
        {TEXT.createTitle}
      </h2>
      <p className="hint">{TEXT.createHint}</p>
      {created && (
        <StatusNotice>
          {TEXT.created(money(created.amount, created.currency), created.destination.phoneNumber)}{' '}
          <Link to={`/dashboard/${mode}/payouts/${created.id}`}>{TEXT.open}</Link>
        </StatusNotice>
      )}
      <PayoutProblem error={error} />
      <div className="form-row">
        <div className="field">
          <label htmlFor="po-amount">
            {TEXT.amount} <span className="hint">{TEXT.amountHint}</span>
          </label>
          <input id="po-amount" inputMode="decimal" required autoComplete="off" value={form.amount} onChange={set('amount')} />
        </div>
        <div className="field">
          <label htmlFor="po-currency">{TEXT.currency}</label>
          <select id="po-currency" value={currency} onChange={set('currency')}>
            {[...new Set([...currencies, ...CURRENCIES])].map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="po-provider">{TEXT.provider}</label>
          <select id="po-provider" value="mtn_momo" disabled>
            <option value="mtn_momo">{TEXT.providers.mtn_momo}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="po-phone">
            {TEXT.phone} <span className="hint">{TEXT.phoneHint}</span>
          </label>
          <input id="po-phone" type="tel" required autoComplete="off" value={form.phoneNumber} onChange={set('phoneNumber')} />
        </div>
      </div>
      <div className="field" style={{ marginTop: '1rem' }}>
        <label htmlFor="po-description">
          {TEXT.description} <span className="hint">{TEXT.descriptionHint}</span>
        </label>
        <input id="po-description" maxLength={200} value={form.description} onChange={set('description')} />
      </div>
      <div className="actions">
        <button type="submit" disabled={busy}>
          {busy ? TEXT.creating : TEXT.create}
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
  const { dateTime } = useI18n();
  const loaded = useLoad(() => api<PayoutSchedule>('GET', `/${mode}/payout-schedule`), mode);
  const [draft, setDraft] = useState<ScheduleDraft | null>(null);
  const [saved, setSaved] = useState<PayoutSchedule | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (loaded.data) setDraft(draftOf(loaded.data));
    setSaved(null);
  }, [loaded.data]);
  const current = saved ?? loaded.data;

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!draft) return;
    setBusy(true);
    setError(null);
    setSaved(null);
    const minimumAmount = Object.fromEntries(Object.entries(draft.minimums).filter(([, v]) => v.trim() !== '').map(([c, v]) => [c, v.trim()]));
    const phone = phoneOf(draft.phoneNumber);
    try {
      const result = await api<PayoutSchedule>('PUT', `/${mode}/payout-schedule`, {
        interval: draft.interval,
        ...(draft.interval === 'weekly' ? { weeklyAnchor: draft.weeklyAnchor } : {}),
        ...(phone ? { destination: { provider: 'mtn_momo', phoneNumber: phone } } : {}),
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
        {TEXT.scheduleTitle}
      </h2>
      <p className="hint">{TEXT.scheduleIntro}</p>
      <ErrorNotice error={loaded.error} />
      {!draft || !current ? (
        loaded.loading && <p role="status">{TEXT.scheduleLoading}</p>
      ) : (
        <form onSubmit={save} aria-label={TEXT.scheduleTitle}>
          {saved && <StatusNotice>{TEXT.saved}</StatusNotice>}
          <PayoutProblem error={error} />
          <fieldset>
            <legend>{TEXT.interval}</legend>
            {(['manual', 'daily', 'weekly'] as const).map((i) => (
              <label key={i} className="check">
                <input type="radio" name="po-interval" value={i} checked={draft.interval === i} onChange={() => setDraft({ ...draft, interval: i })} />
                {TEXT.intervals[i]}
              </label>
            ))}
          </fieldset>
          <div className="form-row" style={{ marginTop: '1rem' }}>
            {draft.interval === 'weekly' && (
              <div className="field">
                <label htmlFor="ps-weekday">{TEXT.weekday}</label>
                <select id="ps-weekday" value={draft.weeklyAnchor} onChange={(e) => setDraft({ ...draft, weeklyAnchor: e.target.value })}>
                  {WEEK_DAYS.map((d) => (
                    <option key={d} value={d}>
                      {TEXT.weekdays[d]}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <div className="field">
              <label htmlFor="ps-phone">
                {TEXT.scheduleDestination} <span className="hint">{TEXT.phoneHint}</span>
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
            <legend>{TEXT.minimums}</legend>
            <p className="hint">{TEXT.minimumsHint}</p>
            <div className="form-row">
              {CURRENCIES.map((c) => (
                <div className="field" key={c}>
                  <label htmlFor={`ps-min-${c}`}>{TEXT.minimumFor(c)}</label>
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
            <dt>{TEXT.nextRun}</dt>
            <dd>{current.nextRunAt ? dateTime(current.nextRunAt) : TEXT.noNextRun}</dd>
          </dl>
          <div className="actions">
            <button type="submit" disabled={busy}>
              {busy ? TEXT.saving : TEXT.save}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

export function PayoutDetail({ mode, id }: { mode: Mode; id: string }) {
  const { money, dateTime } = useI18n();
  const loaded = useLoad(() => api<Payout>('GET', `/${mode}/payouts/${encodeURIComponent(id)}`), `${mode}/${id}`);
  const p = loaded.data;
  const pending = p?.status === 'PENDING';
  const { reload } = loaded;
  // While the provider has not answered, look again every 2 seconds.
  useEffect(() => {
    if (!pending || loaded.loading) return;
    const timer = setTimeout(reload, 2000);
    return () => clearTimeout(timer);
  }, [pending, loaded.loading, reload]);

  const back = (
    <p>
      <Link to={`/dashboard/${mode}/payouts`}>{TEXT.allPayouts}</Link>
    </p>
  );
  if (!p) {
    return (
      <>
        {back}
        <PageTitle title={TEXT.payout}>{TEXT.payout}</PageTitle>
        <ErrorNotice error={loaded.error} />
        {!loaded.error && <p role="status">{TEXT.detailLoading}</p>}
      </>
    );
  }
  return (
    <>
      {back}
      <PageTitle title={`${TEXT.payout} ${p.id}`}>
        {TEXT.payout} {money(p.amount, p.currency)} <Badge value={p.status} label={TEXT.statuses[p.status]} />
      </PageTitle>
      <ErrorNotice error={loaded.error} />
      {pending && <StatusNotice tone="info">{TEXT.waiting}</StatusNotice>}
      {p.status === 'FAILED' && <div className="notice warning">{TEXT.failedNote}</div>}
      <section className="card" aria-labelledby="po-summary-title">
        <h2 id="po-summary-title" style={{ marginTop: 0 }}>
          {TEXT.summary}
        </h2>
        <dl className="summary">
          <dt>{TEXT.payoutId}</dt>
          <dd className="mono">{p.id}</dd>
          <dt>{TEXT.status}</dt>
          <dd>
            <Badge value={p.status} label={TEXT.statuses[p.status]} />
          </dd>
          <dt>{TEXT.amount}</dt>
          <dd>{money(p.amount, p.currency)}</dd>
          <dt>{TEXT.destination}</dt>
          <dd>
            <Destination payout={p} />
          </dd>
          <dt>{TEXT.method}</dt>
          <dd>{TEXT.methods[p.method]}</dd>
          <dt>{TEXT.descriptionLabel}</dt>
          <dd>{p.description ?? TEXT.none}</dd>
          {p.failureReason && (
            <>
              <dt>{TEXT.failureReason}</dt>
              <dd>
                {TEXT.failureReasons[p.failureReason] && <>{TEXT.failureReasons[p.failureReason]} </>}
                <code>{p.failureReason}</code>
              </dd>
            </>
          )}
          <dt>{TEXT.createdAt}</dt>
          <dd>{dateTime(p.createdAt)}</dd>
          <dt>{TEXT.updated}</dt>
          <dd>{dateTime(p.updatedAt)}</dd>
          <dt>{TEXT.completed}</dt>
          <dd>{dateTime(p.completedAt)}</dd>
        </dl>
        <div className="actions">
          <button type="button" className="secondary" onClick={reload}>
            {TEXT.refresh}
          </button>
        </div>
      </section>
    </>
  );
}
