import { useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api } from '../../dashboard/api.ts';
import { useSubmit } from '../../dashboard/pages/Login.tsx';
import { PageTitle, SecretField } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { Field, OperatorError, type PageProps, Table } from '../shared.tsx';
import type { InvitedOperator, OperatorList } from '../types.ts';

/** The operators, and an admin's invitation. */
export function Operators({ can }: PageProps) {
  const { t, dateTime } = useI18n();
  const loaded = useOperatorQuery<OperatorList>(['operators'], '/operators');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('support');
  const [invited, setInvited] = useState<{ email: string; password: string } | null>(null);
  const { busy, error, run } = useSubmit();
  return (
    <>
      <PageTitle title={t('operator.operatorsTitle')}>{t('operator.operatorsTitle')}</PageTitle>
      <OperatorError error={loaded.error} />
      {loaded.data ? (
        <Table label={t('operator.operatorsTitle')} head={[t('login.email'), t('operator.role'), t('operator.totp'), t('operator.created')]}>
          {loaded.data.data.map((o) => (
            <tr key={o.id}>
              <td>{o.email}</td>
              <td>{t('operator.roleName', { role: o.role })}</td>
              <td>{o.totpEnabled ? t('operator.yes') : t('operator.no')}</td>
              <td>{dateTime(o.createdAt)}</td>
            </tr>
          ))}
        </Table>
      ) : null}
      {can('operators:write') ? (
        <section aria-labelledby="invite-title">
          <h2 id="invite-title">{t('operator.inviteTitle')}</h2>
          <OperatorError error={error} />
          {invited ? (
            <SecretField label={t('operator.invitedPassword', { email: invited.email })} value={invited.password} hint={t('operator.invitedHint')} />
          ) : null}
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void run(async () => {
                const made = await api<InvitedOperator>('POST', '/operators', { email: email.trim(), role });
                setInvited({ email: made.email, password: made.password });
                setEmail('');
                loaded.reload();
              });
            }}
          >
            <Field label={t('login.email')}>{(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}</Field>
            <Field label={t('operator.role')}>
              {(id) => (
                <select id={id} value={role} onChange={(e) => setRole(e.target.value)}>
                  {['admin', 'compliance', 'finance', 'support'].map((r) => (
                    <option key={r} value={r}>
                      {t('operator.roleName', { role: r })}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <button type="submit" disabled={busy}>
              {t('operator.invite')}
            </button>
          </form>
        </section>
      ) : null}
    </>
  );
}
