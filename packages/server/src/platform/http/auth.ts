import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, merchantFrozen } from '../errors.ts';
import type { AuthFailureGuard } from './rate-limit.ts';
import { misplacedCredential } from './credentials.ts';
import {
  ACCESS_LEVELS,
  allows,
  API_RESOURCES,
  assertModeOpen,
  type AccessTokenVerifier,
  type Authenticator,
  type MerchantContext,
  type RouteAccess,
  type UserContext,
} from '../tenancy.ts';
import { isApiVersion, LATEST_API_VERSION } from '../versioning.ts';

/**
 * Who may call a route (docs/spec/endpoints.md): `none` (operations), `pk` (API key), `sk` (API key + secret
 * key), `user` (API key + the user's access token). Routes that say nothing need `pk`.
 */
export type AuthKind = 'none' | 'pk' | 'sk' | 'user';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthKind;
    /**
     * What a secret-key route needs of a restricted key (`rk_…`), e.g. `'payouts:write'`. A route
     * that declares none refuses every restricted key (403 `permission_denied`); secret keys may
     * call every route.
     */
    access?: RouteAccess;
    /**
     * A `user` route a payer may also call with the intent's session token (`x-session-token`)
     * instead of a user access token: the direct mobile-money charge (docs/spec/mobile-money-payments.md). The route
     * checks the session token itself.
     */
    payerSession?: boolean;
    /**
     * The route starts a new money movement (an intent, a charge, a payout): a merchant frozen
     * by an operator gets 403 `merchant_frozen` (its other routes still answer).
     */
    refusedWhenFrozen?: boolean;
  }
  interface FastifyRequest {
    merchant: MerchantContext;
    user: UserContext;
    apiVersion: string;
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Authentication as a step of the request hooks (security.ts runs it after the CORS checks).
 * `kind` is the route's (undefined: no route). Throws the refusal; returns a promise only when it
 * must wait (a key not in the cache, a user's access token), so a cached key awaits nothing.
 */
export type AuthStep = (request: FastifyRequest, reply: FastifyReply, kind: AuthKind | undefined, access: RouteAccess | undefined) => Promise<void> | undefined;

const ROUTE_ACCESS = new Set<string>(API_RESOURCES.flatMap((r) => ACCESS_LEVELS.filter((l) => l !== 'none').map((l) => `${r}:${l}`)));

/**
 * A restricted key (its permissions in the context) past the route's needs, else 403
 * `permission_denied` naming the permission. Secret keys (no permissions) pass every route.
 */
export function assertAccess(merchant: MerchantContext, access: RouteAccess | undefined): void {
  if (merchant.permissions === undefined) return;
  if (access === undefined) {
    throw new ApiError('permission_denied', 'Restricted keys (rk_…) cannot call this operation: it takes a secret key (sk_…)', { extra: { permission: null } });
  }
  if (!allows(merchant.permissions, access)) {
    throw new ApiError('permission_denied', `This restricted key does not have the ${access} permission this operation needs: create a key that has it`, {
      extra: { permission: access },
    });
  }
}

export function registerAuth(
  app: FastifyInstance,
  merchants: Authenticator,
  verifyAccessToken: () => AccessTokenVerifier | undefined,
  failures?: AuthFailureGuard,
): AuthStep {
  app.decorateRequest('merchant', null as unknown as MerchantContext);
  app.decorateRequest('user', null as unknown as UserContext);
  app.decorateRequest('apiVersion', LATEST_API_VERSION);

  // Routes of plugins that cannot say (the /docs UI) are public; everything else defaults to pk.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs') && route.config?.auth === undefined) {
      route.config = { ...(route.config ?? {}), auth: 'none' };
    }
    // A misspelt access would refuse every restricted key: the app does not build instead.
    const access = route.config?.access;
    if (access !== undefined && (route.config?.auth !== 'sk' || !ROUTE_ACCESS.has(access))) {
      throw new Error(`Route ${String(route.method)} ${route.url}: config.access "${access}" must be <resource>:read|write on a secret-key route (auth: 'sk')`);
    }
    // The OpenAPI document says what each secret-key route takes of a restricted key.
    if (route.config?.auth === 'sk' && route.schema && !route.schema.hide) {
      const said =
        access === undefined ? 'Restricted keys (rk_…) cannot call it: a secret key only.' : `A restricted key (rk_…) needs the \`${access}\` permission.`;
      const description = typeof route.schema.description === 'string' ? `${route.schema.description}\n\n${said}` : said;
      route.schema = { ...route.schema, description };
    }
  });

  function admitted(
    request: FastifyRequest,
    reply: FastifyReply,
    kind: AuthKind,
    access: RouteAccess | undefined,
    asked: string | undefined,
    token: string | undefined,
    merchant: MerchantContext,
  ) {
    // Every call of a live key, reads included, whatever the route: live mode needs the approval.
    assertModeOpen(merchant, merchant.mode);
    if (kind === 'sk') assertAccess(merchant, access);
    if (merchant.frozen === true && request.routeOptions.config.refusedWhenFrozen === true) {
      throw merchantFrozen();
    }
    request.merchant = merchant;
    request.apiVersion = asked ?? merchant.pinnedVersion;
    reply.header('pay-version', request.apiVersion);
    if (kind !== 'user') return undefined;
    if (!token && request.routeOptions.config.payerSession === true && single(request.headers['x-session-token']) !== undefined) return undefined;
    if (!token) {
      // Credentials are checked before the body is read: name both ways such a route may be called.
      if (request.routeOptions.config.payerSession === true)
        throw new ApiError(
          'access_token_missing',
          "Send the customer's access token in Authorization: Bearer <token> to pay from the wallet, or the intent's session token in x-session-token to pay by mobile money",
        );
      throw new ApiError('access_token_missing', 'Send the user access token in Authorization: Bearer <token>');
    }
    const verifier = verifyAccessToken();
    if (!verifier) throw new ApiError('access_token_invalid', 'User access tokens are not accepted by this server');
    return verifier(token, merchant).then((user) => {
      request.user = user;
    });
  }

  return (request, reply, kind, access) => {
    const asked = single(request.headers['pay-version']);
    if (asked !== undefined && !isApiVersion(asked)) {
      throw new ApiError('version_unknown', `Unknown pay-version "${asked}"; this server speaks ${LATEST_API_VERSION}`, { param: 'pay-version' });
    }
    // Unknown routes fall to the not-found handler, which needs no credentials.
    if (kind === undefined || kind === 'none') return undefined;

    // An address that failed too often is refused before its key costs a lookup (issue 20).
    failures?.check(request);
    const apiKey = single(request.headers['x-api-key']);
    const token = bearer(request);
    // A key in the wrong place is named before any lookup (and is not a failed key).
    const misplaced = misplacedCredential(kind, apiKey, token);
    if (misplaced) throw misplaced;
    const secret = kind === 'sk' ? token : undefined;
    const cached = merchants.authenticateCached?.(apiKey, secret, kind === 'sk');
    if (cached) return admitted(request, reply, kind, access, asked, token, cached);
    return merchants.authenticate(apiKey, secret, kind === 'sk').then(
      (merchant) => admitted(request, reply, kind, access, asked, token, merchant),
      async (err: unknown) => {
        if (err instanceof ApiError && err.status === 401) await failures?.failed(request);
        throw err;
      },
    );
  };
}

/** Test-mode helpers (`/test/…`) do not exist for live keys: 404 not_found, as for any unknown path. */
export function assertTestMode(request: FastifyRequest): void {
  if (request.merchant.mode !== 'test') {
    throw new ApiError('not_found', `No route ${request.method} ${request.url.split('?')[0]} in live mode: test helpers need test keys`);
  }
}
