import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import { ApiProblem } from '../api.ts';
import { Link } from '../router.tsx';
import { type Customer, type Mode } from '../types.ts';
import { PagedTable } from '../paging.tsx';
import { useCustomer, useCustomers } from '../queries/customers.ts';
import { useProviderName } from '../queries/providers.ts';
import { Badge, ErrorNotice, PageTitle, TableWrap } from '../ui.tsx';

/** Failure codes in words (the code stays beside them, for support). */
const PAYMENT_FAILURES: Record<string, MessageId> = { insufficient_funds: 'customers.failure.insufficient_funds' };
const TOPUP_FAILURES: Record<string, MessageId> = {
  APPROVAL_REJECTED: 'customers.failure.APPROVAL_REJECTED',
  TIMEOUT: 'customers.failure.TIMEOUT',
  AMOUNT_MISMATCH: 'customers.failure.AMOUNT_MISMATCH',
  INTERNAL_PROCESSING_ERROR: 'customers.failure.INTERNAL_PROCESSING_ERROR',
};
/** A payment's failure in words (its `lastError.code`): the API's English message is never shown. */
export const FAILURE_TEXTS: Record<string, MessageId> = { ...PAYMENT_FAILURES, ...TOPUP_FAILURES };

const PAGE_SIZE = 20;

/** "5 000 XAF", one line per currency; a dash when nothing was paid. */
function Volume({ volume }: { volume: Customer['volume'] }) {
  const { t, money } = useI18n();
  if (volume.length === 0) return <span className="hint">{t('customers.none')}</span>;
  return (
    <>
      {volume.map((v) => (
        <div key={v.currency}>{money(v.amount, v.currency)}</div>
      ))}
    </>
  );
}

export function Customers({ mode }: { mode: Mode }) {
  const { t, dateTime } = useI18n();
  const pages = useCustomers(mode, `limit=${PAGE_SIZE}`);
  return (
    <>
      <PageTitle title={t('customers.title')}>{t('customers.title')}</PageTitle>
      <p>{t('customers.intro')}</p>
      <p className="hint">{t('customers.masked')}</p>
      <PagedTable
        pages={pages}
        label={t('customers.tableLabel')}
        caption={t('customers.caption')}
        columns={[
          { label: t('customers.phone') },
          { label: t('customers.firstPayment') },
          { label: t('customers.lastPayment') },
          { label: t('customers.payments'), num: true },
          { label: t('customers.volume'), num: true },
          { label: t('customers.created') },
        ]}
        text={{ loading: t('customers.loading'), empty: t('customers.empty'), loadMore: t('customers.loadMore') }}
        row={(c) => (
          <tr key={c.id}>
            <th scope="row">
              <Link to={`/dashboard/${mode}/customers/${c.id}`} className="mono">
                {c.phoneNumber}
              </Link>
            </th>
            <td>{dateTime(c.firstPaymentAt)}</td>
            <td>{dateTime(c.lastPaymentAt)}</td>
            <td className="num">{c.payments}</td>
            <td className="num">
              <Volume volume={c.volume} />
            </td>
            <td>{dateTime(c.createdAt)}</td>
          </tr>
        )}
      />
    </>
  );
}

/** A payment's failure code in words (the code itself stays beside it, for support). */
function FailureText({ code, words }: { code: string | null; words: Record<string, MessageId> }) {
  const { t } = useI18n();
  if (code === null) return <span className="hint">{t('customers.none')}</span>;
  const word = words[code];
  return (
    <>
      {word ? t(word) : code}
      {words[code] !== undefined && <span className="hint mono">{code}</span>}
    </>
  );
}

export function CustomerDetail({ mode, id }: { mode: Mode; id: string }) {
  const { t, rich, money, dateTime } = useI18n();
  const loaded = useCustomer(mode, id);
  const providerName = useProviderName(mode);
  const back = (
    <p>
      <Link to={`/dashboard/${mode}/customers`}>{t('customers.allCustomers')}</Link>
    </p>
  );
  if (loaded.error) {
    const notFound = loaded.error instanceof ApiProblem && loaded.error.status === 404;
    return (
      <>
        {back}
        <PageTitle title={t('customers.customer')}>{t('customers.customer')}</PageTitle>
        {notFound ? <div className="notice info">{t('customers.notFound')}</div> : <ErrorNotice error={loaded.error} />}
      </>
    );
  }
  const detail = loaded.data;
  if (!detail) return <p role="status">{t('customers.detailLoading')}</p>;
  const c = detail.customer;
  return (
    <>
      {back}
      <PageTitle title={t('customers.docTitle', { phone: c.phoneNumber })}>
        {rich('customers.heading', { phone: c.phoneNumber, mono: (chunks) => <span className="mono">{chunks}</span> })}
      </PageTitle>
      <p className="hint">{t('customers.masked')}</p>
      <section className="card" aria-label={t('customers.customer')}>
        <dl className="summary">
          <dt>{t('customers.customerId')}</dt>
          <dd className="mono">{c.id}</dd>
          <dt>{t('customers.phone')}</dt>
          <dd className="mono">{c.phoneNumber}</dd>
          <dt>{t('customers.payments')}</dt>
          <dd>{c.payments}</dd>
          <dt>{t('customers.volume')}</dt>
          <dd>
            <Volume volume={c.volume} />
          </dd>
          <dt>{t('customers.firstPayment')}</dt>
          <dd>{dateTime(c.firstPaymentAt)}</dd>
          <dt>{t('customers.lastPayment')}</dt>
          <dd>{dateTime(c.lastPaymentAt)}</dd>
          <dt>{t('customers.created')}</dt>
          <dd>{dateTime(c.createdAt)}</dd>
        </dl>
      </section>

      <section aria-labelledby="attempts-title">
        <h2 id="attempts-title">{t('customers.attemptsTitle')}</h2>
        <p className="hint">{t('customers.attemptsIntro')}</p>
        <TableWrap label={t('customers.attemptsLabel')}>
          <table>
            <caption className="visually-hidden">{t('customers.attemptsCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('customers.payment')}</th>
                <th scope="col" className="num">
                  {t('customers.amount')}
                </th>
                <th scope="col">{t('customers.status')}</th>
                <th scope="col">{t('customers.failure')}</th>
                <th scope="col">{t('customers.date')}</th>
              </tr>
            </thead>
            <tbody>
              {detail.payments.length === 0 && (
                <tr>
                  <td colSpan={5} className="empty">
                    {t('customers.noAttempts')}
                  </td>
                </tr>
              )}
              {detail.payments.map((p) => (
                <tr key={p.id}>
                  <th scope="row">
                    <Link to={`/dashboard/${mode}/payments/${p.intentId}`} className="mono">
                      {p.intentId}
                    </Link>
                  </th>
                  <td className="num">{money(p.amount, p.currency)}</td>
                  <td>
                    <Badge value={p.status} />
                  </td>
                  <td>
                    <FailureText code={p.failureCode} words={PAYMENT_FAILURES} />
                  </td>
                  <td>{dateTime(p.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </section>

      <section aria-labelledby="topups-title">
        <h2 id="topups-title">{t('customers.topupsTitle')}</h2>
        <p className="hint">{t('customers.topupsIntro')}</p>
        <TableWrap label={t('customers.topupsLabel')}>
          <table>
            <caption className="visually-hidden">{t('customers.topupsCaption')}</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  {t('customers.amount')}
                </th>
                <th scope="col">{t('customers.provider')}</th>
                <th scope="col">{t('customers.status')}</th>
                <th scope="col">{t('customers.failure')}</th>
                <th scope="col">{t('customers.date')}</th>
              </tr>
            </thead>
            <tbody>
              {detail.topups.length === 0 && (
                <tr>
                  <td colSpan={5} className="empty">
                    {t('customers.noTopups')}
                  </td>
                </tr>
              )}
              {detail.topups.map((topup) => (
                <tr key={topup.id}>
                  <th scope="row" className="num">
                    {money(topup.amount, topup.currency)}
                  </th>
                  <td>{providerName(topup.provider)}</td>
                  <td>
                    <Badge value={topup.status} />
                  </td>
                  <td>
                    <FailureText code={topup.failureReason} words={TOPUP_FAILURES} />
                  </td>
                  <td>{dateTime(topup.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </section>
      <p>
        <Link to={`/dashboard/${mode}/payments`}>{t('customers.allPayments')}</Link>
      </p>
    </>
  );
}
