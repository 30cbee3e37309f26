import { useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api } from '../../dashboard/api.ts';
import { useSubmit } from '../../dashboard/pages/Login.tsx';
import { PageTitle } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { Loading, OperatorError, type PageProps, Table, useModeText } from '../shared.tsx';
import type { LatePayments as LatePaymentList } from '../types.ts';

/**
 * Late payments to return by hand (decision 0077): a success that arrived for an attempt the
 * payer had already been told failed, through a connector that can neither refund nor transfer.
 * The money is held for the payer; an operator sends it back with the provider's own tools, then
 * says so here (with `providers:manage`), with a note the audit log keeps.
 */
export function LatePayments({ can }: PageProps) {
  const { t, dateTime, money } = useI18n();
  const modeText = useModeText();
  const loaded = useOperatorQuery<LatePaymentList>(['late-payments'], '/late-payments');
  const [notes, setNotes] = useState<Record<string, string>>({});
  const { busy, error, run } = useSubmit();
  const open = loaded.data?.data.filter((r) => r.status === 'TO_RETURN').length ?? 0;
  return (
    <>
      <PageTitle title={t('operator.latePaymentsTitle')}>{t('operator.latePaymentsTitle')}</PageTitle>
      <p>{t('operator.latePaymentsIntro')}</p>
      {open > 0 ? (
        <p role="alert" className="notice bad">
          {t('operator.latePaymentsAlert', { count: open })}
        </p>
      ) : null}
      <OperatorError error={loaded.error ?? error} />
      <Loading shown={loaded.loading && !loaded.data} />
      {loaded.data && loaded.data.data.length === 0 ? <p>{t('operator.latePaymentsNone')}</p> : null}
      {loaded.data && loaded.data.data.length > 0 ? (
        <Table
          label={t('operator.latePaymentsTitle')}
          head={[
            t('operator.latePaymentPayer'),
            t('operator.amount'),
            t('operator.mode'),
            t('operator.routeConnectors'),
            t('operator.latePaymentPayment'),
            t('operator.latePaymentStatus'),
          ]}
        >
          {loaded.data.data.map((r) => (
            <tr key={r.id}>
              <th scope="row" className="mono">
                {r.phoneNumber}
              </th>
              <td>{money(r.amount, r.currency)}</td>
              <td>{modeText(r.mode)}</td>
              <td className="mono">
                {r.connector} <span className="hint">{r.providerAccount}</span>
              </td>
              <td className="mono">
                {r.intentId} <span className="hint">{r.attemptId}</span>
              </td>
              <td>
                {r.status === 'RETURNED' ? (
                  <span className="badge ok">
                    {t('operator.latePaymentReturned', { date: dateTime(r.returnedAt ?? r.createdAt), who: r.returnedBy ?? '—' })}
                  </span>
                ) : can('providers:manage') ? (
                  <form
                    onSubmit={(e) => {
                      e.preventDefault();
                      void run(async () => {
                        await api('POST', `/late-payments/${encodeURIComponent(r.id)}/returned`, { note: notes[r.id] ?? '' });
                        loaded.reload();
                      });
                    }}
                  >
                    <input
                      aria-label={t('operator.latePaymentNote', { phone: r.phoneNumber })}
                      required
                      maxLength={500}
                      value={notes[r.id] ?? ''}
                      onChange={(e) => setNotes({ ...notes, [r.id]: e.target.value })}
                    />
                    <button type="submit" disabled={busy}>
                      {t('operator.latePaymentMark')}
                    </button>
                  </form>
                ) : (
                  <span className="badge bad">{t('operator.latePaymentToReturn')}</span>
                )}
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
    </>
  );
}
