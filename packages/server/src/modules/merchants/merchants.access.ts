import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import type { DashboardAudit, DashboardUser } from '../../platform/http/dashboard-api.ts';
import { translator } from '../../platform/i18n.ts';
import { hashPassword } from '../../platform/passwords.ts';
import type { Caller, KeyPermissions } from '../../platform/tenancy.ts';
import type { MessagingService } from '../messaging/index.ts';
import { assertPasswordPolicy } from '../users/index.ts';
import { type KeyView, permissionsOfKey, restrictedPermissions } from './merchants.keys.ts';
import type { KeyKind, TeamRole } from './merchants.repository.ts';
import type { MerchantsService } from './merchants.service.ts';

/**
 * API keys and the team as the dashboard's members manage them: each change writes its audit entry
 * (in the change's transaction when there is one). Who may do what (roles, a fresh TOTP code) is
 * the dashboard's to decide, asked before a key is issued.
 */
export function createMerchantAccess(deps: Deps, services: { merchants: MerchantsService; messaging: Pick<MessagingService, 'sendProof'> }) {
  const { db } = deps;
  const { merchants, messaging } = services;

  async function keyOfMode(scope: Caller, keyId: string): Promise<KeyView> {
    const key = (await merchants.listKeys(scope.merchantId)).find((k) => k.id === keyId && k.mode === scope.mode);
    if (!key) throw new ApiError('not_found', `No ${scope.mode} API key ${keyId}`, { param: 'id' });
    return key;
  }

  /**
   * The invitation e-mail through the messaging module, in the inviter's language (theirs, else
   * the merchant's). A proof of control of the invitee's address: with SMTP configured it is sent;
   * without, in development and tests it lands in the operator outbox (never the inviter's test
   * outbox, or the inviter could accept it), and in production it is refused (503 `unavailable`)
   * unless CAISSE_LIVE_OUTBOX allows the outbox, which keeps the text without the link's token.
   */
  async function sendInvitation(inviter: DashboardUser, email: string, role: TeamRole, link: string, token: string) {
    const t = translator({ saved: inviter.language, merchantDefault: inviter.merchantLanguage });
    const merchant = inviter.merchantName;
    await messaging.sendProof({
      merchantId: inviter.merchantId,
      userId: null,
      channel: 'email',
      to: email,
      subject: t.text('dashboard.invitationSubject', { merchant }),
      body: t.text('dashboard.invitation', { inviter: inviter.email, merchant, role, link }),
      code: token,
    });
  }

  return {
    keyOfMode,

    async listKeys(scope: Caller) {
      const data = (await merchants.listKeys(scope.merchantId)).filter((k) => k.mode === scope.mode).reverse();
      return { data, hasMore: false };
    },

    /**
     * Creates a key the dashboard allowed (`permissions` already resolved for a restricted key);
     * the audit entry, written with the key, names what it may do.
     */
    createKey(
      audit: DashboardAudit,
      scope: Caller,
      input: { name: string; kind: KeyKind; allowedOrigins?: string[]; permissions?: KeyPermissions },
      permissions: KeyPermissions | null,
    ) {
      return db.transaction().execute(async (tx) => {
        const key = await merchants.createKey(
          scope.merchantId,
          { kind: input.kind, mode: scope.mode, name: input.name, allowedOrigins: input.allowedOrigins, permissions: permissions ?? input.permissions },
          tx,
        );
        await audit.record(tx, {
          mode: scope.mode,
          action: 'key.created',
          targetId: key.id,
          details: { name: key.name, kind: key.kind, permissions: permissionsOfKey(key.kind, key.permissions) },
        });
        return key;
      });
    },

    /** What a restricted key's requested permissions come to (null for the other kinds). */
    permissionsFor: (kind: KeyKind, requested: KeyPermissions | undefined) => (kind === 'restricted' ? restrictedPermissions(requested) : null),

    /** Rolls a key the dashboard allowed to issue again (the same rules as creating it). */
    async rollKey(audit: DashboardAudit, scope: Caller, old: KeyView, graceSeconds: number) {
      const rolled = await merchants.rollKey(scope.merchantId, old.id, graceSeconds);
      await audit.record(db, {
        mode: scope.mode,
        action: 'key.rolled',
        targetId: old.id,
        details: { newKeyId: rolled.new.id, graceSeconds, kind: old.kind, permissions: permissionsOfKey(old.kind, old.permissions) },
      });
      return rolled;
    },

    async revokeKey(audit: DashboardAudit, scope: Caller, keyId: string) {
      await keyOfMode(scope, keyId);
      const key = await merchants.revokeKey(scope.merchantId, keyId);
      await audit.record(db, { mode: scope.mode, action: 'key.revoked', targetId: keyId, details: { name: key.name } });
      return key;
    },

    async setAllowedOrigins(audit: DashboardAudit, scope: Caller, keyId: string, origins: string[]) {
      await keyOfMode(scope, keyId);
      const key = await merchants.setAllowedOrigins(scope.merchantId, keyId, origins);
      await audit.record(db, { mode: scope.mode, action: 'key.origins_changed', targetId: keyId, details: { allowedOrigins: key.allowedOrigins } });
      return key;
    },

    // ---- team ---------------------------------------------------------------------------------

    team: {
      list: (merchantId: string) => merchants.listTeam(merchantId),

      /**
       * Invites an e-mail address with a role, then sends its e-mail (in the inviter's language)
       * once the invitation is committed; an e-mail the provider refuses revokes the invitation, so
       * no link is pending that nobody received.
       */
      async invite(audit: DashboardAudit, inviter: DashboardUser, input: { email: string; role: TeamRole }, base: string) {
        const { invitation, token } = await db.transaction().execute(async (tx) => {
          const made = await merchants.invite(inviter.merchantId, { ...input, by: { id: inviter.userId, email: inviter.email } }, tx);
          await audit.record(tx, {
            mode: null,
            action: 'member.invited',
            targetId: made.invitation.id,
            details: { email: made.invitation.email, role: made.invitation.role },
          });
          return made;
        });
        try {
          // `base`: CAISSE_PUBLIC_URL, else the address the server listens on (never a request header).
          await sendInvitation(inviter, invitation.email, invitation.role, `${base}/dashboard/invitations/${token}`, token);
        } catch (err) {
          await db.transaction().execute((tx) => merchants.revokeInvitation(tx, inviter.merchantId, invitation.id));
          throw err;
        }
        return invitation;
      },

      async revokeInvitation(audit: DashboardAudit, merchantId: string, id: string) {
        return db.transaction().execute(async (tx) => {
          const invitation = await merchants.revokeInvitation(tx, merchantId, id);
          await audit.record(tx, { mode: null, action: 'invitation.revoked', targetId: id, details: { email: invitation.email } });
          return invitation;
        });
      },

      async setRole(audit: DashboardAudit, merchantId: string, userId: string, role: TeamRole) {
        return db.transaction().execute(async (tx) => {
          const { before, member } = await merchants.setMemberRole(tx, merchantId, userId, role);
          if (before !== role)
            await audit.record(tx, { mode: null, action: 'member.role_changed', targetId: userId, details: { email: member.email, from: before, to: role } });
          return member;
        });
      },

      /** Removes a member; `endSessions` ends theirs in the same transaction (their next request is 401). */
      async remove(audit: DashboardAudit, merchantId: string, userId: string, endSessions: (tx: Tx, userId: string) => Promise<void>) {
        await db.transaction().execute(async (tx) => {
          await endSessions(tx, userId);
          const member = await merchants.removeMember(tx, merchantId, userId);
          await audit.record(tx, { mode: null, action: 'member.removed', targetId: userId, details: { email: member.email, role: member.role } });
        });
      },

      /** What the invitation page shows before the password is chosen (404/410 as acceptance would). */
      async invitation(token: string) {
        const i = await merchants.openInvitation(token);
        return {
          object: 'dashboard_invitation_preview' as const,
          email: i.email,
          role: i.role,
          merchant: { name: i.merchant_name },
          expiresAt: i.expires_at.toISOString(),
        };
      },

      /**
       * Accepts an invitation: the password (the customers' rules: 8 characters at least, not a
       * common one), then the account; answers the new member's id for the dashboard to sign in.
       */
      async accept(
        input: { token: string; password: string; language?: 'fr' | 'en' | null },
        auditAs: (actor: { userId: string; email: string; merchantId: string }) => DashboardAudit,
      ): Promise<string> {
        const preview = await merchants.openInvitation(input.token);
        assertPasswordPolicy(input.password, preview.email);
        const passwordHash = await hashPassword(input.password);
        const accepted = await db.transaction().execute(async (tx) => {
          const done = await merchants.acceptInvitation(tx, input.token, { passwordHash, language: input.language ?? null });
          await auditAs({ userId: done.user.id, email: done.user.email, merchantId: done.merchantId }).record(tx, {
            mode: null,
            action: 'invitation.accepted',
            targetId: done.invitation.id,
            details: { email: done.user.email, role: done.user.role },
          });
          return done;
        });
        return accepted.user.id;
      },
    },
  };
}

export type MerchantAccess = ReturnType<typeof createMerchantAccess>;
