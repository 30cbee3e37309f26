import { useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api } from '../../dashboard/api.ts';
import { useSubmit } from '../../dashboard/pages/Login.tsx';
import { PageTitle, StatusNotice } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { kindText, OperatorError, type PageProps, Table } from '../shared.tsx';
import type { LedgerVerification, Money } from '../types.ts';
import { FeeRevenue } from './FeeRevenue.tsx';
import { Reconciliations } from './Reconciliations.tsx';

/** The platform's money from the ledger, the fee revenue report, the last reconciliations and the ledger check. */
export function MoneyPage({ can }: PageProps) {
  const { t, money } = useI18n();
  const loaded = useOperatorQuery<Money>(['money'], '/money');
  const [report, setReport] = useState<LedgerVerification | null>(null);
  const { busy, error, run } = useSubmit();
  return (
    <>
      <PageTitle title={t('operator.moneyTitle')}>{t('operator.moneyTitle')}</PageTitle>
      <p>{t('operator.moneyIntro')}</p>
      <OperatorError error={loaded.error} />
      {loaded.data && loaded.data.totals.length === 0 ? <p>{t('operator.noBalances')}</p> : null}
      {loaded.data && loaded.data.totals.length > 0 ? (
        <Table
          label={t('operator.moneyTitle')}
          head={[t('operator.mode'), t('operator.currency'), t('operator.account'), t('operator.amount'), t('operator.accounts')]}
        >
          {loaded.data.totals.map((r) => (
            <tr key={`${r.mode}-${r.currency}-${r.kind}`}>
              <td>{r.mode === 'live' ? t('dash.liveMode') : t('dash.testMode')}</td>
              <td>{r.currency}</td>
              <td>{kindText(t, r.kind)}</td>
              <td>{money(r.amount, r.currency)}</td>
              <td>{r.accounts}</td>
            </tr>
          ))}
        </Table>
      ) : null}
      <FeeRevenue />
      <Reconciliations />
      {can('ledger:verify') ? (
        <section aria-labelledby="verify-title">
          <h2 id="verify-title">{t('operator.verifyTitle')}</h2>
          <OperatorError error={error} />
          {report ? (
            <StatusNotice tone={report.ok ? 'success' : 'warning'}>
              {report.ok
                ? t('operator.verifyOk', { accounts: report.accounts, transfers: report.transfers })
                : t('operator.verifyDifferences', { count: report.differences.length })}
            </StatusNotice>
          ) : null}
          {report && !report.ok ? (
            <ul>
              {report.differences.map((d) => (
                <li key={`${d.type}-${d.id}`}>
                  <code>{d.type}</code> {d.id}: {d.detail}
                </li>
              ))}
            </ul>
          ) : null}
          <button type="button" disabled={busy} onClick={() => void run(async () => setReport(await api<LedgerVerification>('POST', '/ledger/verify', {})))}>
            {t('operator.verifyRun')}
          </button>
        </section>
      ) : null}
    </>
  );
}
