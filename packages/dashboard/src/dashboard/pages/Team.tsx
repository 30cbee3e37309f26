import { type FormEvent, useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { useCan } from '../permissions.tsx';
import { useChangeRole, useInviteMember, useRemoveMember, useRevokeInvitation, useTeam } from '../queries/team.ts';
import { type Role, ROLES, type Session, type TeamMember } from '../types.ts';
import { ConfirmButton, ErrorNotice, PageTitle, StatusNotice, TableWrap } from '../ui.tsx';

/** A role's name in the page's language. */
export function useRoleName() {
  const { t } = useI18n();
  const names = { owner: 'team.roleOwner', developer: 'team.roleDeveloper', analyst: 'team.roleAnalyst', support: 'team.roleSupport' } as const;
  return (role: Role) => t(names[role]);
}

/** The team: members with their roles, pending invitations; owners invite, change roles, remove. */
export function Team({ session }: { session: Session }) {
  const { t, dateTime } = useI18n();
  const can = useCan();
  const roleName = useRoleName();
  const team = useTeam();
  const inviteMember = useInviteMember();
  const revokeInvitation = useRevokeInvitation();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('analyst');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  const manage = can('team:write');

  async function act(what: () => Promise<unknown>, message: string) {
    setError(null);
    setDone('');
    try {
      await what();
      setDone(message);
      return true;
    } catch (err) {
      setError(err);
      return false;
    }
  }

  async function invite(e: FormEvent) {
    e.preventDefault();
    if (await act(() => inviteMember.mutateAsync({ email, role }), t('team.invited', { email }))) setEmail('');
  }

  return (
    <>
      <PageTitle title={t('team.title')}>{t('team.title')}</PageTitle>
      <p>{t('team.intro')}</p>
      <ErrorNotice error={error} />
      {done && <StatusNotice>{done}</StatusNotice>}
      {manage && (
        <form className="card" onSubmit={invite} aria-labelledby="invite-title">
          <h2 id="invite-title" style={{ marginTop: 0 }}>
            {t('team.inviteTitle')}
          </h2>
          <div className="form-row">
            <div className="field">
              <label htmlFor="invite-email">{t('team.email')}</label>
              <input id="invite-email" type="email" required maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="invite-role">{t('team.role')}</label>
              <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {roleName(r)}
                  </option>
                ))}
              </select>
            </div>
            <div className="actions" style={{ marginTop: 0 }}>
              <button type="submit">{t('team.invite')}</button>
            </div>
          </div>
          <p className="hint">{t('team.inviteHint')}</p>
        </form>
      )}
      <ErrorNotice error={team.error} />
      {team.data && (
        <>
          <h2>{t('team.members')}</h2>
          <TableWrap label={t('team.members')}>
            <table>
              <caption className="visually-hidden">{t('team.members')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('team.email')}</th>
                  <th scope="col">{t('team.role')}</th>
                  <th scope="col">{t('team.since')}</th>
                  {manage && <th scope="col">{t('team.actions')}</th>}
                </tr>
              </thead>
              <tbody>
                {team.data.members.map((m) => (
                  <MemberRow key={m.id} member={m} self={m.email === session.email} manage={manage} act={act} />
                ))}
              </tbody>
            </table>
          </TableWrap>
          <h2>{t('team.pending')}</h2>
          <TableWrap label={t('team.pending')}>
            <table>
              <caption className="visually-hidden">{t('team.pending')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('team.email')}</th>
                  <th scope="col">{t('team.role')}</th>
                  <th scope="col">{t('team.invitedBy')}</th>
                  <th scope="col">{t('team.expires')}</th>
                  {manage && <th scope="col">{t('team.actions')}</th>}
                </tr>
              </thead>
              <tbody>
                {team.data.invitations.length === 0 && (
                  <tr>
                    <td colSpan={manage ? 5 : 4} className="empty">
                      {t('team.noPending')}
                    </td>
                  </tr>
                )}
                {team.data.invitations.map((i) => (
                  <tr key={i.id}>
                    <th scope="row">{i.email}</th>
                    <td>{roleName(i.role)}</td>
                    <td>{i.invitedBy}</td>
                    <td>{dateTime(i.expiresAt)}</td>
                    {manage && (
                      <td>
                        <ConfirmButton
                          label={t('team.revoke')}
                          name={t('team.revokeName', { email: i.email })}
                          confirmLabel={t('team.revokeNow', { email: i.email })}
                          onConfirm={() => void act(() => revokeInvitation.mutateAsync(i.id), t('team.revoked', { email: i.email }))}
                        />
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </>
      )}
    </>
  );
}

function MemberRow({
  member,
  self,
  manage,
  act,
}: {
  member: TeamMember;
  self: boolean;
  manage: boolean;
  act: (what: () => Promise<unknown>, message: string) => Promise<boolean>;
}) {
  const { t, dateTime } = useI18n();
  const roleName = useRoleName();
  const changeRole = useChangeRole();
  const removeMember = useRemoveMember();
  const selectId = `role-${member.id}`;
  return (
    <tr>
      <th scope="row">
        {member.email} {self && <span className="hint">{t('team.you')}</span>}
      </th>
      <td>
        {manage ? (
          <>
            <label htmlFor={selectId} className="visually-hidden">
              {t('team.roleOf', { email: member.email })}
            </label>
            <select
              id={selectId}
              value={member.role}
              onChange={(e) => {
                const role = e.target.value as Role;
                void act(() => changeRole.mutateAsync({ id: member.id, role }), t('team.roleChanged', { email: member.email, role: roleName(role) }));
              }}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleName(r)}
                </option>
              ))}
            </select>
          </>
        ) : (
          roleName(member.role)
        )}
      </td>
      <td>{dateTime(member.createdAt)}</td>
      {manage && (
        <td>
          <ConfirmButton
            label={t('team.remove')}
            name={t('team.removeName', { email: member.email })}
            confirmLabel={t('team.removeNow', { email: member.email })}
            onConfirm={() => void act(() => removeMember.mutateAsync(member.id), t('team.removed', { email: member.email }))}
          />
        </td>
      )}
    </tr>
  );
}
