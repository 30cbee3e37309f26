import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { callerOf, dashboardTags as tags, ModeIdParams, ModeParams, Session, sessionRoute } from '../../platform/http/dashboard-api.ts';
import { emailLinkBase } from '../../platform/http/public-url.ts';
import { createMerchantAccess } from './merchants.access.ts';
import {
  AcceptInvitationBody,
  ApiKey,
  ApiKeyList,
  CreatedApiKey,
  CreateKeyBody,
  EmptyBody,
  IdParams,
  Invitation,
  InvitationPreview,
  InviteBody,
  Member,
  OriginsBody,
  RoleBody,
  RolledApiKey,
  RollKeyBody,
  Team,
  TokenParams,
} from './merchants.schema.ts';

const open = { auth: 'none' as const, csp: 'api' as const, dashboard: 'public' as const };

/**
 * The dashboard's API keys and Team pages: the merchant's keys of the mode of the path, its
 * members and invitations. Every change writes the audit log; what a member's role lets them give
 * a key, two-factor codes and sessions are the dashboard's (`app.dashboardSessions`).
 */
export function merchantsDashboardRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const access = createMerchantAccess(app.deps, { merchants: app.services.merchants, messaging: app.services.messaging });
  const sessions = app.dashboardSessions;

  // ---- API keys ---------------------------------------------------------------------------------

  app.get(
    '/:mode/keys',
    {
      config: sessionRoute('keys:read'),
      schema: { tags, summary: 'API keys and secret keys of the mode, newest first', params: ModeParams, response: { 200: ApiKeyList } },
    },
    async (req) => access.listKeys(callerOf(req)),
  );

  app.post(
    '/:mode/keys',
    {
      config: sessionRoute('keys:write'),
      schema: {
        tags,
        summary: 'Create a key: the answer shows it in full, once',
        description:
          "A member creates only keys that do no more than their role may: a secret key (everything) takes an owner; a restricted key (`kind: restricted`, `permissions` per resource) takes a role that has each access it grants (403 `permission_denied` naming what is beyond it). In live mode a secret or restricted key also takes `code`, a fresh code of the member's authenticator app (403 `totp_code_required` without it, 401 `totp_code_invalid` or `totp_code_reused`). The audit entry `key.created` names the permissions granted.",
        params: ModeParams,
        body: CreateKeyBody,
        response: { 201: CreatedApiKey },
      },
    },
    async (req, reply) => {
      const permissions = access.permissionsFor(req.body.kind, req.body.permissions);
      await sessions.assertMayIssueKey(req, { kind: req.body.kind, permissions, code: req.body.code });
      return reply.code(201).send(await access.createKey(req.dashboardAudit, callerOf(req), req.body, permissions));
    },
  );

  app.post(
    '/:mode/keys/:id/roll',
    {
      config: sessionRoute('keys:write'),
      schema: {
        tags,
        summary: 'Roll a key: a new one now, the old one working for the grace period',
        description:
          'The new key does what the old one did, so rolling takes what creating it takes: the role, and in live mode a fresh `code` for a secret or restricted key.',
        params: ModeIdParams,
        body: RollKeyBody,
        response: { 200: RolledApiKey },
      },
    },
    async (req) => {
      const old = await access.keyOfMode(callerOf(req), req.params.id);
      await sessions.assertMayIssueKey(req, { kind: old.kind, permissions: old.permissions, code: req.body.code });
      return access.rollKey(req.dashboardAudit, callerOf(req), old, req.body.graceSeconds);
    },
  );

  app.post(
    '/:mode/keys/:id/revoke',
    { config: sessionRoute('keys:write'), schema: { tags, summary: 'Revoke a key now', params: ModeIdParams, body: EmptyBody, response: { 200: ApiKey } } },
    async (req) => access.revokeKey(req.dashboardAudit, callerOf(req), req.params.id),
  );

  app.post(
    '/:mode/keys/:id/allowed-origins',
    {
      config: sessionRoute('keys:write'),
      schema: { tags, summary: 'Replace the browser origins allowed to use an API key', params: ModeIdParams, body: OriginsBody, response: { 200: ApiKey } },
    },
    async (req) => access.setAllowedOrigins(req.dashboardAudit, callerOf(req), req.params.id, req.body.allowedOrigins),
  );

  // ---- team (no mode: a member is one for test and live) ------------------------------------------

  app.get(
    '/team',
    {
      config: sessionRoute('team:read'),
      schema: { tags, summary: 'The team: members with their roles, and pending invitations', response: { 200: Team } },
    },
    async (req) => ({ object: 'dashboard_team' as const, ...(await access.team.list(req.dashboardUser.merchantId)) }),
  );

  app.post(
    '/team/invitations',
    {
      config: sessionRoute('team:write'),
      schema: {
        tags,
        summary: 'Invite someone by e-mail with a role',
        description:
          "Sends an e-mail (SMTP when configured; the test outbox in development) in the inviter's language with a single-use link `/dashboard/invitations/<token>` valid 7 days; only the token's SHA-256 is kept. A pending invitation of the same address is replaced. Errors: `already_exists` (409: the address has a dashboard account), `validation_error`, `unavailable` (503: no e-mail provider in production).",
        body: InviteBody,
        response: { 201: Invitation },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await access.team.invite(req.dashboardAudit, req.dashboardUser, req.body, emailLinkBase(req.server.deps.config, req.server.server))),
  );

  app.delete(
    '/team/invitations/:id',
    {
      config: sessionRoute('team:write'),
      schema: {
        tags,
        summary: 'Revoke a pending invitation: its link answers 410 `invitation_revoked` from then on',
        params: IdParams,
        response: { 200: Invitation },
      },
    },
    async (req) => access.team.revokeInvitation(req.dashboardAudit, req.dashboardUser.merchantId, req.params.id),
  );

  app.patch(
    '/team/members/:id',
    {
      config: sessionRoute('team:write'),
      schema: {
        tags,
        summary: "Change a member's role (applies to their next request)",
        description: 'Errors: `last_owner` (409: the team would have no owner left), `not_found`.',
        params: IdParams,
        body: RoleBody,
        response: { 200: Member },
      },
    },
    async (req) => access.team.setRole(req.dashboardAudit, req.dashboardUser.merchantId, req.params.id, req.body.role),
  );

  app.delete(
    '/team/members/:id',
    {
      config: sessionRoute('team:write'),
      schema: {
        tags,
        summary: 'Remove a member: their account and every session of theirs end at once (their next request is 401)',
        description: 'Errors: `last_owner` (409), `not_found`.',
        params: IdParams,
      },
    },
    async (req, reply) => {
      await access.team.remove(req.dashboardAudit, req.dashboardUser.merchantId, req.params.id, sessions.endAll);
      return reply.code(204).send();
    },
  );

  app.get(
    '/invitations/:token',
    {
      config: open,
      schema: {
        tags,
        summary: 'What an invitation link invites to (the acceptance page reads it first)',
        description: 'Errors: `invitation_not_found` (404), `invitation_used`, `invitation_revoked`, `invitation_expired` (410).',
        params: TokenParams,
        response: { 200: InvitationPreview },
      },
    },
    async (req) => access.team.invitation(req.params.token),
  );

  app.post(
    '/invitations/:token/accept',
    {
      config: open,
      schema: {
        tags,
        summary: 'Accept an invitation: choose a password, and be signed in',
        description:
          'Creates the dashboard user of the inviting merchant with the invited role, uses the invitation up and signs in (session cookie, the session with its `csrfToken`). Errors: `invitation_not_found` (404), `invitation_used`, `invitation_revoked`, `invitation_expired` (410), `password_weak` (400), `already_exists` (409).',
        params: TokenParams,
        body: AcceptInvitationBody,
        response: { 200: Session },
      },
    },
    async (req, reply) => {
      const userId = await access.team.accept({ token: req.params.token, ...req.body }, sessions.auditAs);
      return sessions.signIn(req, reply, userId);
    },
  );
}
