import { type FormEvent, useState } from 'react';
import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import { PagedTable } from '../paging.tsx';
import { useBalance, useBalanceTransactions } from '../queries/balance.ts';
import { DateField } from '../date-field.tsx';
import { Link, navigate } from '../router.tsx';
import { BALANCE_TRANSACTION_TYPES, type BalanceTransactionType, type Mode } from '../types.ts';
import { Badge, CsvDownload, ErrorNotice, PageTitle, TableWrap } from '../ui.tsx';

/** Each line type's word (written in full, so the catalogue check finds every id). */
const TYPE_TEXTS: Record<BalanceTransactionType, MessageId> = {
  charge: 'balance.type.charge',
  fee: 'balance.type.fee',
  refund: 'balance.type.refund',
  payout: 'balance.type.payout',
  payout_reversal: 'balance.type.payoutReversal',
  refund_reversal: 'balance.type.refundReversal',
  late_payment: 'balance.type.latePayment',
  adjustment: 'balance.type.adjustment',
  reserve: 'balance.type.reserve',
  reserve_release: 'balance.type.reserveRelease',
};

interface Filters {
  type: string;
  from: string;
  to: string;
}

/** The statement's query string: type and period (dates: whole UTC days, as the API reads them). */
function queryOf(filters: Filters, extra: Record<string, string> = {}) {
  const q = new URLSearchParams(extra);
  if (filters.type) q.set('type', filters.type);
  if (filters.from) q.set('from', filters.from);
  if (filters.to) q.set('to', filters.to);
  return q.toString();
}

export function Balance({ mode, search }: { mode: Mode; search: string }) {
  const { t, money } = useI18n();
  const balance = useBalance(mode);
  return (
    <>
      <PageTitle title={t('balance.title')}>{t('balance.title')}</PageTitle>
      <p>{t('balance.intro', { mode })}</p>
      <ErrorNotice error={balance.error} />
      {!balance.data ? (
        balance.isPending && <p role="status">{t('balance.loading')}</p>
      ) : balance.data.balances.length === 0 ? (
        <div className="card">
          <p className="big-number">0</p>
          <p className="hint">{t('balance.empty', { mode })}</p>
        </div>
      ) : (
        <TableWrap label={t('balance.tableLabel')}>
          <table className="balance-table">
            <thead>
              <tr>
                <th scope="col">{t('balance.currency')}</th>
                <th scope="col" className="num">
                  {t('balance.available')}
                </th>
                <th scope="col" className="num">
                  {t('balance.pending')}
                </th>
                <th scope="col" className="num">
                  {t('balance.reserved')}
                </th>
              </tr>
            </thead>
            <tbody>
              {balance.data.balances.map((b) => (
                <tr key={b.currency}>
                  <th scope="row">{b.currency}</th>
                  <td className="num">{money(b.available, b.currency)}</td>
                  <td className="num">{money(b.pending, b.currency)}</td>
                  <td className="num">{money(b.reserved, b.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      {balance.data && balance.data.balances.length > 0 && (
        <p>
          <Link to={`/dashboard/${mode}/payouts`} className="button secondary">
            {t('balance.payOut')}
          </Link>
        </p>
      )}
      <Statement mode={mode} search={search} />
    </>
  );
}

function Statement({ mode, search }: { mode: Mode; search: string }) {
  const { t, money, dateTime } = useI18n();
  const params = new URLSearchParams(search);
  const filters: Filters = { type: params.get('type') ?? '', from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const [draft, setDraft] = useState(filters);
  const pages = useBalanceTransactions(mode, queryOf(filters, { limit: '20' }));
  const csv = `/dashboard/api/${mode}/balance/transactions.csv${queryOf(filters) ? `?${queryOf(filters)}` : ''}`;

  function apply(e: FormEvent) {
    e.preventDefault();
    const q = queryOf(draft);
    navigate(`/dashboard/${mode}/balance${q ? `?${q}` : ''}`);
  }

  return (
    <section aria-labelledby="statement-title">
      <h2 id="statement-title">{t('balance.statement')}</h2>
      <p className="hint">{t('balance.statementIntro')}</p>
      <form className="card" onSubmit={apply} aria-label={t('balance.filter')}>
        <div className="form-row">
          <div className="field">
            <label htmlFor="st-type">{t('balance.type')}</label>
            <select id="st-type" value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.target.value })}>
              <option value="">{t('balance.anyType')}</option>
              {BALANCE_TRANSACTION_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(TYPE_TEXTS[type])}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="st-from">{t('balance.from')}</label>
            <DateField id="st-from" value={draft.from} describedBy="st-period-hint" onChange={(from) => setDraft({ ...draft, from })} />
          </div>
          <div className="field">
            <label htmlFor="st-to">{t('balance.to')}</label>
            <DateField id="st-to" value={draft.to} describedBy="st-period-hint" onChange={(to) => setDraft({ ...draft, to })} />
          </div>
          <div className="actions" style={{ marginTop: 0 }}>
            <button type="submit">{t('balance.apply')}</button>
            {(filters.type || filters.from || filters.to) && (
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setDraft({ type: '', from: '', to: '' });
                  navigate(`/dashboard/${mode}/balance`);
                }}
              >
                {t('balance.clear')}
              </button>
            )}
          </div>
        </div>
        <p className="hint" id="st-period-hint">
          {t('balance.periodHint')}
        </p>
        <CsvDownload href={csv} label={t('balance.download')} hint={t('balance.downloadHint')} />
      </form>
      <PagedTable
        pages={pages}
        label={t('balance.transactionsLabel')}
        caption={t('balance.caption')}
        columns={[
          { label: t('balance.date') },
          { label: t('balance.type') },
          { label: t('balance.amount'), num: true },
          { label: t('balance.balanceAfter'), num: true },
          { label: t('balance.status') },
          { label: t('balance.availableOn') },
          { label: t('balance.source') },
        ]}
        text={{ loading: t('balance.statementLoading'), empty: t('balance.noTransactions'), loadMore: t('dash.loadMore') }}
        row={(line) => (
          <tr key={line.id}>
            <td>{dateTime(line.createdAt)}</td>
            <td>{TYPE_TEXTS[line.type] ? t(TYPE_TEXTS[line.type]) : line.type}</td>
            <td className="num">{money(line.amount, line.currency)}</td>
            <td className="num">{money(line.balanceAfter, line.currency)}</td>
            <td>
              <Badge value={line.status} />
            </td>
            <td>{dateTime(line.availableOn)}</td>
            <td>
              <Source mode={mode} id={line.source} />
            </td>
          </tr>
        )}
      />
    </section>
  );
}

/** What caused a line: a payment or a payout links to its page; a refund shows its id. */
function Source({ mode, id }: { mode: Mode; id: string | null }) {
  if (!id) return <span className="hint">—</span>;
  const page = id.startsWith('pi_') ? 'payments' : id.startsWith('po_') ? 'payouts' : null;
  if (!page) return <span className="mono">{id}</span>;
  return (
    <Link to={`/dashboard/${mode}/${page}/${id}`} className="mono">
      {id}
    </Link>
  );
}
