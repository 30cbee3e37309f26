import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Country } from '../countries.ts';
import type { Executor, Tx } from '../db.ts';
import { ApiError } from '../errors.ts';
import type { Language } from '../i18n.ts';
import type { Caller, KeyMode, KeyPermissions } from '../tenancy.ts';
import type { IdempotentAnswer } from './idempotency.ts';

/**
 * How a feature adds its pages' API to the dashboard (`/dashboard/api`): the dashboard module owns
 * sign-in, sessions, roles and the audit log, and puts on every session request who is signed in
 * (`request.dashboardUser`) and a way to write the audit log (`request.dashboardAudit`); a feature
 * module exports a `DashboardRoutes` function that declares routes with `sessionRoute(permission)`
 * and acts through its own service. The composition root hands those functions to the dashboard.
 */
export type DashboardRoutes = (app: FastifyInstance) => void | Promise<void>;

/** What a dashboard API route needs of the signed-in user's role, declared on the route (`config.permission`). */
export const DASHBOARD_PERMISSIONS = [
  /** The user's own account: session, language, password, two-factor, own sessions. Every role. */
  'account',
  'payments:read',
  /** Cancel, refund, payment links. */
  'payments:write',
  'customers:read',
  /**
   * Customers' full phone numbers and e-mail addresses, as the API answers them (the dashboard
   * masks them): only keys give them, so this permission only bounds the keys a member creates.
   */
  'customers:contact',
  'balance:read',
  'payouts:read',
  'payouts:write',
  'keys:read',
  'keys:write',
  'webhooks:read',
  /** Add, change, delete endpoints, reveal and roll secrets, resend events. */
  'webhooks:write',
  'events:read',
  /** Test-mode messages and test users. */
  'testdata:write',
  'team:read',
  'team:write',
  'audit:read',
  /** The merchant's country and payment methods. */
  'settings:read',
  'settings:write',
] as const;
export type DashboardPermission = (typeof DASHBOARD_PERMISSIONS)[number];

/** The actions written to a merchant's audit log (the Audit log page's filter offers them). */
export const AUDIT_ACTIONS = [
  'key.created',
  'key.rolled',
  'key.revoked',
  'key.origins_changed',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_rolled',
  'webhook_endpoint.secret_revealed',
  'payment.refunded',
  'payment.canceled',
  'payout.created',
  'payout_schedule.changed',
  'member.invited',
  'member.role_changed',
  'member.removed',
  'invitation.accepted',
  'invitation.revoked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** An audit log entry; `mode` null for what has none (team changes). */
export interface AuditEntry {
  mode: KeyMode | null;
  action: AuditAction;
  targetId?: string;
  details?: Record<string, unknown>;
}

/** The signed-in merchant user a session route acts for. */
export interface DashboardUser {
  userId: string;
  email: string;
  merchantId: string;
  merchantName: string;
  pinnedVersion: string;
  /** The user's own language; null: their browser's, then the merchant's. */
  language: Language | null;
  merchantLanguage: Language;
  /** The merchant's country: phone numbers typed without a country code are read in it. */
  merchantCountry: Country;
}

/** The audit log, for the signed-in user of the request. */
export interface DashboardAudit {
  /** Writes an entry with `executor`: a transaction's, so the entry commits with the change. */
  record(executor: Executor, entry: AuditEntry): Promise<void>;
  /**
   * The entry written in the transaction of a change that takes an `IdempotentAnswer` (payouts,
   * refunds, cancels): `of` reads the target from the change's answer.
   */
  withChange(mode: KeyMode, action: AuditAction, of: (body: unknown) => { targetId?: string; details?: Record<string, unknown> }): IdempotentAnswer;
}

/**
 * What the dashboard's sessions do for the feature that manages who may act (the merchants
 * module's keys and team): the dashboard owns sessions, roles and two-factor sign-in, so the
 * feature asks it rather than reading them itself.
 */
export interface DashboardSessions {
  /**
   * 403 `permission_denied` unless the signed-in member's role may give a key this much; in live
   * mode a secret or restricted key also takes a fresh code of the member's authenticator app.
   */
  assertMayIssueKey(
    req: FastifyRequest,
    key: { kind: 'publishable' | 'secret' | 'restricted'; permissions: KeyPermissions | null; code?: string },
  ): Promise<void>;
  /** Signs in a user who proved who they are (an accepted invitation): the session cookie on `reply`, the session answered. */
  signIn(req: FastifyRequest, reply: FastifyReply, userId: string): Promise<SessionAnswer>;
  /** Ends every session of a user in `tx`, so a removed member's next request is 401. */
  endAll(tx: Tx, userId: string): Promise<void>;
  /** The audit log of someone not signed in yet (the member an invitation just made). */
  auditAs(actor: { userId: string; email: string; merchantId: string }): DashboardAudit;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Inside the dashboard API only: its plugin decorates its own scope. */
    dashboardSessions: DashboardSessions;
  }
  interface FastifyContextConfig {
    /** Dashboard API routes: `public` (sign-in) or `session` (the default: a signed-in user). */
    dashboard?: 'public' | 'session';
    /** What a session route needs of the signed-in user's role. */
    permission?: DashboardPermission;
  }
  interface FastifyRequest {
    dashboardUser: DashboardUser;
    dashboardAudit: DashboardAudit;
  }
}

const Language = Type.Union([Type.Literal('fr'), Type.Literal('en')]);

/** A signed-in session as the dashboard answers it: sign-in, GET /session, an accepted invitation. */
export const Session = Type.Object({
  object: Type.Literal('dashboard_session'),
  email: Type.String(),
  language: Type.Union([Language, Type.Null()], {
    description:
      "The signed-in user's own language (the dashboard's language switch); null: none chosen, so the browser's languages, then the merchant's default, then French decide.",
  }),
  merchant: Type.Object({ id: Type.String(), name: Type.String(), language: { ...Language, description: "The merchant's default language" } }),
  role: Type.Union([Type.Literal('owner'), Type.Literal('developer'), Type.Literal('analyst'), Type.Literal('support')], {
    description: "The signed-in user's team role",
  }),
  permissions: Type.Array(Type.String(), { description: 'What the role may do (dashboard.roles.ts): the page shows only what works' }),
  csrfToken: Type.String({ description: 'Send it back as `x-csrf-token` on every POST, PATCH and DELETE of /dashboard/api.' }),
  expiresAt: Type.String({ format: 'date-time', description: 'When the session ends if left idle (30 minutes; 12 hours at most after sign-in).' }),
  totpEnabled: Type.Boolean({ description: 'Two-factor sign-in is on. Without it, every live-mode route answers 403 `totp_required` (owners must enrol).' }),
});
export type SessionAnswer = Static<typeof Session>;

/** The OpenAPI tag of the dashboard's internal API. */
export const dashboardTags = ['dashboard (internal)'];

/** A session route's config: no API key, the API's CSP and no-store, and the permission it needs. */
export const sessionRoute = (permission: DashboardPermission) => ({ auth: 'none' as const, csp: 'api' as const, permission });

export const ModeParams = Type.Object({
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')], { description: "Which mode's objects: the dashboard's test/live switch." }),
});
export const ModeIdParams = Type.Object({ ...ModeParams.properties, id: Type.String({ maxLength: 64 }) });

/** Who a session route acts for: the signed-in user's merchant, in the mode of the path. */
export function callerOf(req: { params: { mode: KeyMode }; dashboardUser: DashboardUser }): Caller & { merchantCountry: Country } {
  const { merchantId, pinnedVersion, merchantCountry } = req.dashboardUser;
  return { merchantId, mode: req.params.mode, pinnedVersion, merchantCountry };
}

/** A CSV download: its file name made of safe characters only (the filters can hold `:` and `+`). */
export function sendCsv(reply: FastifyReply, name: string, stream: NodeJS.ReadableStream) {
  const file = `${name}.csv`.replace(/[^A-Za-z0-9._-]/g, '_');
  return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${file}"`).send(stream);
}

/**
 * A filter's instant: ISO 8601 as RFC 3339 writes it, checked by the schema, never read by
 * `new Date()` alone (which takes `' OR '1'='1` for 2001-01-01 and 2026-02-30 for 2 March).
 */
export const FilterInstant = (what: string) =>
  Type.Union([Type.String({ format: 'date-time', maxLength: 40 }), Type.String({ format: 'date', maxLength: 10 })], {
    description: `${what}: an RFC 3339 date-time with its zone (2026-11-01T09:30:00Z) or a date (2026-11-01, midnight UTC); anything else is 400 \`validation_error\`.`,
  });

/** A filter's instant as `FilterInstant` checked it; a date alone is midnight UTC. */
export function instantOf(value: string | undefined, param: string): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  // The schema lets a leap second (23:59:60) through, which Date cannot hold.
  if (Number.isNaN(at.getTime())) throw new ApiError('validation_error', `${param} must be an RFC 3339 date-time`, { param });
  return at;
}

/** The test-mode tools (messages outbox, funded users, settle now) do not exist in live mode. */
export function assertTestMode(caller: Caller, what: string): void {
  if (caller.mode !== 'test') throw new ApiError('not_found', `${what} exists in test mode only`);
}
