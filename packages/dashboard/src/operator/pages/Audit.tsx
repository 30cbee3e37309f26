import { useI18n } from '../../shared/i18n.tsx';
import { PageTitle } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { OperatorError, Table } from '../shared.tsx';
import type { AuditList } from '../types.ts';

/** What operators did, newest first. */
export function Audit() {
  const { t, dateTime } = useI18n();
  const loaded = useOperatorQuery<AuditList>(['audit'], '/audit?limit=100');
  const show = (v: unknown) => (v === null || v === undefined ? '—' : <code>{JSON.stringify(v)}</code>);
  return (
    <>
      <PageTitle title={t('operator.auditTitle')}>{t('operator.auditTitle')}</PageTitle>
      <OperatorError error={loaded.error} />
      {loaded.data && loaded.data.data.length === 0 ? <p>{t('audit.empty')}</p> : null}
      {loaded.data && loaded.data.data.length > 0 ? (
        <Table
          label={t('operator.auditTitle')}
          head={[t('audit.when'), t('audit.who'), t('audit.action'), t('audit.target'), t('operator.before'), t('operator.after'), t('operator.reason')]}
        >
          {loaded.data.data.map((e) => (
            <tr key={e.id}>
              <td>{dateTime(e.createdAt)}</td>
              <td>{e.actor.email}</td>
              <td>
                <code>{e.action}</code>
              </td>
              <td className="mono">{e.targetId ?? '—'}</td>
              <td>{show(e.before)}</td>
              <td>{show(e.after)}</td>
              <td>{e.reason ?? '—'}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </>
  );
}
