import { ApiError } from '../../platform/errors.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { Deps } from '../../platform/deps.ts';
import type { Executor } from '../../platform/db.ts';
import type { Language } from '../../platform/i18n.ts';
import { type InvitationRow, merchantsRepository as repo, type TeamRole } from './merchants.repository.ts';

/** An invitation link works for 7 days, once. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
/** Invitation tokens: `inv_` + 32 random bytes (256 bits) in base62 (the logs mask the prefix). */
const INVITATION_TOKEN_SHAPE = /^inv_[0-9A-Za-z]{40,50}$/;

export interface MemberView {
  id: string;
  object: 'dashboard_user';
  email: string;
  role: TeamRole;
  createdAt: string;
}

export interface InvitationView {
  id: string;
  object: 'dashboard_invitation';
  email: string;
  role: TeamRole;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

function memberView(u: { id: string; email: string; role: TeamRole; created_at: Date }): MemberView {
  return { id: u.id, object: 'dashboard_user', email: u.email, role: u.role, createdAt: u.created_at.toISOString() };
}

export function invitationView(i: InvitationRow): InvitationView {
  return {
    id: i.id,
    object: 'dashboard_invitation',
    email: i.email,
    role: i.role,
    invitedBy: i.invited_by_email,
    createdAt: i.created_at.toISOString(),
    expiresAt: i.expires_at.toISOString(),
  };
}

/** A merchant's team: its dashboard users, their roles and the invitations to join. */
export function createTeamService(deps: Deps) {
  const { db, clock, random, ids } = deps;

  /**
   * The invitation of a link's token, if it can still be accepted: else 404
   * `invitation_not_found` (unknown), 410 `invitation_used`, `invitation_revoked` or
   * `invitation_expired`. With `lock`, the row stays locked for the caller's transaction.
   */
  async function openInvitation(token: string, executor: Executor = db, lock = false): Promise<InvitationRow & { merchant_name: string }> {
    const row = INVITATION_TOKEN_SHAPE.test(token) ? await repo.findInvitationByHash(executor, sha256(token), lock) : undefined;
    if (!row) throw new ApiError('invitation_not_found', 'This invitation link is not known: ask for a new invitation');
    if (row.accepted_at) throw new ApiError('invitation_used', 'This invitation was already used: sign in instead, or ask for a new invitation');
    if (row.revoked_at) throw new ApiError('invitation_revoked', 'This invitation was withdrawn by the team: ask for a new invitation');
    if (row.expires_at <= clock.now())
      throw new ApiError('invitation_expired', 'This invitation has expired (links work for 7 days): ask for a new invitation');
    const merchant = await repo.findMerchant(executor, row.merchant_id);
    return { ...row, merchant_name: merchant?.name ?? '' };
  }

  return {
    /** The members, oldest first, and the invitations still pending, newest first. */
    async listTeam(merchantId: string): Promise<{ members: MemberView[]; invitations: InvitationView[] }> {
      const members = (await repo.listDashboardUsers(db, merchantId)).map(memberView);
      const invitations = (await repo.listPendingInvitations(db, merchantId, clock.now())).map(invitationView);
      return { members, invitations };
    },

    /**
     * Invites an e-mail address to the team with a role: a new random token (returned once, for
     * the e-mail's link; only its hash is kept), valid 7 days. An address that already has a
     * dashboard account (of any merchant: sign-in is by e-mail) is 409 `already_exists`; an
     * earlier pending invitation of the same address is revoked (the newest link is the one).
     */
    async invite(
      merchantId: string,
      input: { email: string; role: TeamRole; by: { id: string; email: string } },
      executor: Executor = db,
    ): Promise<{ invitation: InvitationView; token: string }> {
      const email = input.email.trim().toLowerCase();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new ApiError('validation_error', 'email must be an e-mail address', { param: 'email' });
      if (await repo.findDashboardUserByEmail(executor, email)) {
        throw new ApiError('already_exists', `${email} already has a dashboard account: a person has one account, of one merchant`, { param: 'email' });
      }
      const now = clock.now();
      await repo.revokePendingInvitationsOf(executor, merchantId, email, now);
      const token = `inv_${randomToken(random, 32)}`;
      const row = await repo.insertInvitation(executor, {
        id: ids('dashboardInvitation'),
        merchant_id: merchantId,
        email,
        role: input.role,
        token_hash: sha256(token),
        invited_by: input.by.id,
        invited_by_email: input.by.email,
        created_at: now,
        expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
      });
      return { invitation: invitationView(row), token };
    },

    openInvitation,

    /**
     * Accepts an invitation in the caller's transaction: the dashboard user of the invitation's
     * merchant, e-mail and role, with this password hash; the invitation is used up.
     */
    async acceptInvitation(tx: Executor, token: string, input: { passwordHash: string; language: Language | null }) {
      const invitation = await openInvitation(token, tx, true);
      if (await repo.findDashboardUserByEmail(tx, invitation.email)) {
        throw new ApiError('already_exists', `${invitation.email} already has a dashboard account: sign in instead`, { param: 'token' });
      }
      const now = clock.now();
      const user = await repo.insertDashboardUser(tx, {
        id: ids('dashboardUser'),
        merchant_id: invitation.merchant_id,
        email: invitation.email,
        password_hash: input.passwordHash,
        role: invitation.role,
        language: input.language,
        created_at: now,
      });
      await repo.updateInvitation(tx, invitation.id, { accepted_at: now, accepted_user_id: user.id });
      return { user: memberView(user), invitation: invitationView(invitation), merchantId: invitation.merchant_id };
    },

    /** Revokes a pending invitation (410 `invitation_used` once accepted; revoking twice is harmless). */
    async revokeInvitation(tx: Executor, merchantId: string, id: string): Promise<InvitationView> {
      const row = await repo.findInvitation(tx, merchantId, id);
      if (!row) throw new ApiError('invitation_not_found', `No invitation ${id}`, { param: 'id' });
      if (row.accepted_at) throw new ApiError('invitation_used', 'This invitation was already accepted: remove the member instead');
      if (row.revoked_at) return invitationView(row);
      return invitationView(await repo.updateInvitation(tx, row.id, { revoked_at: clock.now() }));
    },

    /** Changes a member's role; 409 `last_owner` if that would leave the team without an owner. */
    async setMemberRole(tx: Executor, merchantId: string, userId: string, role: TeamRole): Promise<{ before: TeamRole; member: MemberView }> {
      const member = await lockedMember(tx, merchantId, userId);
      if (member.role === 'owner' && role !== 'owner') await assertAnotherOwner(tx, merchantId, userId, 'demoted');
      await repo.setDashboardUserRole(tx, userId, role);
      const after = (await repo.listDashboardUsers(tx, merchantId)).find((u) => u.id === userId) ?? { ...member, created_at: clock.now() };
      return { before: member.role, member: memberView(after) };
    },

    /** Removes a member (the caller ends their sessions in the same transaction); never the last owner. */
    async removeMember(tx: Executor, merchantId: string, userId: string): Promise<{ id: string; email: string; role: TeamRole }> {
      const member = await lockedMember(tx, merchantId, userId);
      if (member.role === 'owner') await assertAnotherOwner(tx, merchantId, userId, 'removed');
      await repo.deleteDashboardUser(tx, userId);
      return member;
    },
  };

  /** A member of the merchant, with every member's row locked until the transaction ends. */
  async function lockedMember(tx: Executor, merchantId: string, userId: string) {
    const members = await repo.lockDashboardUsers(tx, merchantId);
    const member = members.find((u) => u.id === userId);
    if (!member) throw new ApiError('not_found', `No team member ${userId}`, { param: 'id' });
    return member;
  }

  async function assertAnotherOwner(tx: Executor, merchantId: string, userId: string, what: string) {
    const owners = (await repo.lockDashboardUsers(tx, merchantId)).filter((u) => u.role === 'owner' && u.id !== userId);
    if (owners.length === 0) throw new ApiError('last_owner', `The last owner cannot be ${what}: make another member owner first`, { param: 'id' });
  }
}
