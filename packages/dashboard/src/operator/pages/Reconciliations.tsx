import { useI18n } from '../../shared/i18n.tsx';
import { useOperatorQuery } from '../queries.ts';
import { OperatorError, Table } from '../shared.tsx';
import type { ReconciliationRuns } from '../types.ts';

/** The newest reconciliation of each provider and mode, as `caisse reconcile` recorded it. */
export function Reconciliations() {
  const { t, dateTime } = useI18n();
  const loaded = useOperatorQuery<ReconciliationRuns>(['reconciliation'], '/reconciliation');
  const resultText = (r: 'agreed' | 'mismatched' | 'unverified') =>
    r === 'agreed' ? t('operator.reconcile.agreed') : r === 'mismatched' ? t('operator.reconcile.mismatched') : t('operator.reconcile.unverified');
  return (
    <section aria-labelledby="reconcile-title">
      <h2 id="reconcile-title">{t('operator.reconcile.title')}</h2>
      <OperatorError error={loaded.error} />
      {loaded.data && loaded.data.data.length === 0 ? <p>{t('operator.reconcile.none')}</p> : null}
      {loaded.data && loaded.data.data.length > 0 ? (
        <Table
          label={t('operator.reconcile.title')}
          head={[
            t('operator.reconcile.provider'),
            t('operator.mode'),
            t('operator.reconcile.period'),
            t('operator.reconcile.result'),
            t('operator.reconcile.counts'),
            t('operator.reconcile.when'),
          ]}
        >
          {loaded.data.data.map((r) => (
            <tr key={r.id}>
              <td>{r.provider}</td>
              <td>{r.mode === 'live' ? t('dash.liveMode') : t('dash.testMode')}</td>
              <td>
                {dateTime(r.from)} – {dateTime(r.to)}
              </td>
              <td>
                <span className={`badge ${r.result === 'agreed' ? 'ok' : 'bad'}`}>{resultText(r.result)}</span>
              </td>
              <td>{t('operator.reconcile.countsValue', { agreed: r.agreed, mismatches: r.mismatches, inFlight: r.inFlight, unverified: r.unverified })}</td>
              <td>{dateTime(r.generatedAt)}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </section>
  );
}
