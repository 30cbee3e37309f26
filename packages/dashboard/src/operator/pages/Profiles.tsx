import { useI18n } from '../../shared/i18n.tsx';
import { Link } from '../../dashboard/router.tsx';
import { PageTitle } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { OperatorError, Table } from '../shared.tsx';
import type { SubmittedProfiles } from '../types.ts';

/** Business profiles waiting for review, oldest first. */
export function Profiles() {
  const { t, dateTime } = useI18n();
  const list = useOperatorQuery<SubmittedProfiles>(['profiles'], '/profiles');
  return (
    <>
      <PageTitle title={t('operator.profilesTitle')}>{t('operator.profilesTitle')}</PageTitle>
      <OperatorError error={list.error} />
      {list.loading && !list.data ? <p role="status">{t('dash.loading')}</p> : null}
      {list.data && list.data.data.length === 0 ? <p>{t('operator.noProfiles')}</p> : null}
      {list.data && list.data.data.length > 0 ? (
        <Table label={t('operator.profilesTitle')} head={[t('operator.name'), t('operator.legalName'), t('operator.country'), t('operator.submitted')]}>
          {list.data.data.map((p) => (
            <tr key={p.merchantId}>
              <td>
                <Link to={`/operator/merchants/${encodeURIComponent(p.merchantId)}`}>{p.merchantName}</Link>
              </td>
              <td>{p.legalName}</td>
              <td>{p.country}</td>
              <td>{p.submittedAt ? dateTime(p.submittedAt) : '—'}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </>
  );
}
