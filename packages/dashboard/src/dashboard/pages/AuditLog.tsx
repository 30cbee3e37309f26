import { useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { PagedTable } from '../paging.tsx';
import { useAuditLog } from '../queries/audit.ts';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS } from '../types.ts';
import { PageTitle } from '../ui.tsx';

/** Who did what, newest first, by action. */
export function AuditLog() {
  const { t, dateTime } = useI18n();
  const [action, setAction] = useState('');
  const pages = useAuditLog(action);
  return (
    <>
      <PageTitle title={t('audit.title')}>{t('audit.title')}</PageTitle>
      <p>{t('audit.intro')}</p>
      <div className="field" style={{ maxWidth: '22rem' }}>
        <label htmlFor="audit-action">{t('audit.filter')}</label>
        <select id="audit-action" value={action} onChange={(e) => setAction(e.target.value)}>
          <option value="">{t('audit.allActions')}</option>
          {AUDIT_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {t(AUDIT_ACTION_LABELS[a])}
            </option>
          ))}
        </select>
      </div>
      <PagedTable
        pages={pages}
        label={t('audit.title')}
        caption={t('audit.caption')}
        columns={[
          { label: t('audit.when') },
          { label: t('audit.who') },
          { label: t('audit.action') },
          { label: t('audit.mode') },
          { label: t('audit.target') },
          { label: t('audit.details') },
        ]}
        text={{ loading: t('audit.loading'), empty: t('audit.empty'), loadMore: t('audit.loadMore') }}
        row={(e) => (
          <tr key={e.id}>
            <td>{dateTime(e.createdAt)}</td>
            <td>{e.actor.email}</td>
            {/* The words; the code stays in the title for support and the API's filter. */}
            <td title={e.action}>{AUDIT_ACTION_LABELS[e.action] ? t(AUDIT_ACTION_LABELS[e.action]) : e.action}</td>
            <td>{e.mode === 'live' ? t('dash.liveMode') : e.mode === 'test' ? t('dash.testMode') : '—'}</td>
            <td className="mono">{e.targetId ?? '—'}</td>
            <td>
              {Object.keys(e.details).length === 0 ? (
                '—'
              ) : (
                <code>
                  {Object.entries(e.details)
                    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
                    .join(', ')}
                </code>
              )}
            </td>
          </tr>
        )}
      />
    </>
  );
}
