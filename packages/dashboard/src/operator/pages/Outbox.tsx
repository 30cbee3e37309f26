import { type FormEvent, useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { PageTitle } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { Field, OperatorError, Table } from '../shared.tsx';
import type { OperatorOutbox } from '../types.ts';

/**
 * The operator outbox: e-mails that prove control of an address (sign-up links, password resets,
 * invitations, sign-up notices) kept because no SMTP server is configured. Merchants never see
 * them; `npx caisse messages list` shows the same list.
 */
export function Outbox() {
  const { t, dateTime } = useI18n();
  const [draft, setDraft] = useState('');
  const [to, setTo] = useState('');
  const list = useOperatorQuery<OperatorOutbox>(['outbox', to], `/messages?limit=50${to ? `&to=${encodeURIComponent(to)}` : ''}`);
  function filter(e: FormEvent) {
    e.preventDefault();
    setTo(draft.trim());
  }
  return (
    <>
      <PageTitle title={t('operator.outboxTitle')}>{t('operator.outboxTitle')}</PageTitle>
      <p>{t('operator.outboxIntro')}</p>
      <form role="search" onSubmit={filter} className="form-row">
        <Field label={t('operator.outboxTo')}>{(id) => <input id={id} type="search" value={draft} onChange={(e) => setDraft(e.target.value)} />}</Field>
        <button type="submit" className="secondary">
          {t('operator.outboxFilter')}
        </button>
      </form>
      <OperatorError error={list.error} />
      {list.loading && !list.data ? <p role="status">{t('dash.loading')}</p> : null}
      {list.data && list.data.data.length === 0 ? <p>{t('operator.outboxEmpty')}</p> : null}
      {list.data && list.data.data.length > 0 ? (
        <Table label={t('operator.outboxTitle')} head={[t('operator.outboxWhen'), t('operator.outboxTo'), t('operator.outboxBody')]}>
          {list.data.data.map((m) => (
            <tr key={m.id}>
              <td>{dateTime(m.createdAt)}</td>
              <td>{m.to}</td>
              <td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{m.body ?? '—'}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </>
  );
}
