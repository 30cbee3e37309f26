import { useI18n } from '../../shared/i18n.tsx';
import { useCan } from '../permissions.tsx';
import { useBalance } from '../queries/balance.ts';
import { usePayments } from '../queries/payments.ts';
import { usePayoutSchedule } from '../queries/payouts.ts';
import { useProviders } from '../queries/providers.ts';
import { useFailingEndpoints } from '../queries/webhooks.ts';
import { Link } from '../router.tsx';
import type { Mode } from '../types.ts';
import { ErrorNotice } from '../ui.tsx';
import { PaymentsTable } from './Payments.tsx';

/**
 * Home's first row, a compact grid: the balance with the next automatic payout, the last
 * payments, and what needs attention (failing webhook endpoints, unavailable providers). Each
 * card shows only what the member's role may read.
 */
export function HomeSummary({ mode }: { mode: Mode }) {
  const can = useCan();
  return (
    <div className="home-grid">
      {can('balance:read') && <BalanceCard mode={mode} />}
      <AttentionCard mode={mode} webhooks={can('webhooks:read')} />
      <LastPayments mode={mode} />
    </div>
  );
}

function BalanceCard({ mode }: { mode: Mode }) {
  const { t, money, dateTime } = useI18n();
  const can = useCan();
  const balance = useBalance(mode);
  return (
    <section className="card home-card" aria-labelledby="home-balance">
      <h2 id="home-balance">{t('home.balance')}</h2>
      <ErrorNotice error={balance.error} />
      {balance.data &&
        (balance.data.balances.length === 0 ? (
          <p className="hint">{t('balance.empty', { mode })}</p>
        ) : (
          balance.data.balances.map((b) => (
            <dl key={b.currency} className="figures figure-row">
              <div>
                <dt>{t('balance.available')}</dt>
                <dd className="figure">{money(b.available, b.currency)}</dd>
              </div>
              <div>
                <dt>{t('balance.pending')}</dt>
                <dd className="figure">{money(b.pending, b.currency)}</dd>
              </div>
            </dl>
          ))
        ))}
      {can('payouts:read') && <NextPayout mode={mode} dateTime={dateTime} />}
      <p>
        <Link to={`/dashboard/${mode}/balance`}>{t('home.seeBalance')}</Link>
      </p>
    </section>
  );
}

function NextPayout({ mode, dateTime }: { mode: Mode; dateTime: (iso: string | null) => string }) {
  const { t } = useI18n();
  const schedule = usePayoutSchedule(mode);
  if (!schedule.data) return null;
  return (
    <p>
      {schedule.data.nextRunAt ? t('home.nextPayout', { at: dateTime(schedule.data.nextRunAt) }) : t('home.manualPayouts')}{' '}
      <Link to={`/dashboard/${mode}/payouts`}>{t('home.payouts')}</Link>
    </p>
  );
}

function AttentionCard({ mode, webhooks }: { mode: Mode; webhooks: boolean }) {
  const { t, dateTime } = useI18n();
  const endpoints = useFailingEndpoints(mode, webhooks);
  const providers = useProviders(mode);
  const down = (providers.data?.data ?? []).filter((p) => p.offered && !p.available);
  const loaded = providers.data !== undefined && (!webhooks || endpoints.loaded);
  const items = endpoints.failing.length + down.length;
  return (
    <section className="card home-card" aria-labelledby="home-attention">
      <h2 id="home-attention">{t('home.attention')}</h2>
      {!loaded ? (
        <p role="status">{t('home.loading')}</p>
      ) : items === 0 ? (
        <p className="hint">{t('home.allGood')}</p>
      ) : (
        <ul className="attention">
          {endpoints.failing.map(({ endpoint, failure }) => (
            <li key={endpoint.id}>
              <Link to={`/dashboard/${mode}/webhooks/${endpoint.id}`}>{t('home.endpointFailing', { url: endpoint.url })}</Link>
              <span className="hint">{t('webhooks.lastError', { error: failure.error, at: dateTime(failure.at) })}</span>
            </li>
          ))}
          {down.map((p) => (
            <li key={p.provider}>{t('home.providerDown', { name: p.name })}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function LastPayments({ mode }: { mode: Mode }) {
  const { t, rich } = useI18n();
  const pages = usePayments(mode, 'limit=5');
  return (
    <section className="card home-card home-wide" aria-labelledby="home-payments">
      <h2 id="home-payments">{t('home.lastPayments')}</h2>
      <ErrorNotice error={pages.error} />
      {pages.loading ? (
        <p role="status">{t('payments.loading')}</p>
      ) : (
        <PaymentsTable mode={mode} rows={pages.rows.slice(0, 5)} caption={t('home.lastPayments')} empty={rich('payments.empty')} />
      )}
      <p>
        <Link to={`/dashboard/${mode}/payments`}>{t('home.allPayments')}</Link>
      </p>
    </section>
  );
}
