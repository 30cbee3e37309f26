import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import { Check, Errors } from 'typebox/value';
import { currencyOf } from './platform/countries.ts';
import { CountrySchema } from './platform/countries.schema.ts';
import { ApiError } from './platform/errors.ts';
import { formatAmount, isCurrency } from './platform/money.ts';
import type { Services } from './services.ts';
import { OPERATOR_ROLES } from './modules/operators/index.ts';

/**
 * The operator's commands of the command line (merchants, keys, the ledger check, signing keys),
 * each runnable two ways with the same code: by the CLI on the database itself, or — while a
 * server holds the embedded database, which one process at a time may open — by that server for
 * the CLI, through its admin endpoint: `POST /admin/<group>/<command>` on loopback, with the
 * token the server wrote into the data directory (admin.json, readable by its owner only).
 * Results are plain JSON either way, so the CLI prints the same thing.
 */

const Id = (prefix: string) => Type.String({ pattern: `^${prefix}_[0-9A-Za-z]+$`, maxLength: 64 });
const Origins = Type.Array(Type.String({ maxLength: 300 }), { maxItems: 50 });

function command<S extends TSchema, R>(args: S, run: (services: Services, args: Static<S>) => Promise<R>) {
  return { args, run };
}

async function requireMerchant(services: Services, merchantId: string): Promise<void> {
  if (!(await services.merchants.findMerchant(merchantId))) {
    throw new ApiError('not_found', `No merchant ${merchantId} (npx caisse merchants list shows them)`);
  }
}

const KeyKind = Type.Union([Type.Literal('publishable'), Type.Literal('secret'), Type.Literal('restricted'), Type.Literal('both')]);

export const ADMIN_COMMANDS = {
  'merchants.create': command(
    Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 200 }),
        email: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })),
        language: Type.Optional(Type.Union([Type.Literal('fr'), Type.Literal('en')])),
        country: Type.Optional(CountrySchema),
      },
      { additionalProperties: false },
    ),
    (s, a) => s.merchants.createMerchant(a),
  ),
  'merchants.country': command(Type.Object({ merchantId: Id('mch'), country: CountrySchema }, { additionalProperties: false }), async (s, a) => {
    await s.merchants.setCountry(a.merchantId, a.country);
    return { merchantId: a.merchantId, country: a.country, currency: currencyOf(a.country) };
  }),
  'merchants.language': command(
    Type.Object({ merchantId: Id('mch'), language: Type.Union([Type.Literal('fr'), Type.Literal('en')]) }, { additionalProperties: false }),
    async (s, a) => {
      await s.merchants.setLanguage(a.merchantId, a.language);
      return { merchantId: a.merchantId, language: a.language };
    },
  ),
  'merchants.list': command(Type.Object({}, { additionalProperties: false }), (s) => s.merchants.listMerchants()),
  'merchants.fees': command(
    Type.Object(
      {
        merchantId: Id('mch'),
        bps: Type.Integer({ minimum: 0, maximum: 10_000 }),
        fixedMinor: Type.Record(Type.String({ pattern: '^[A-Z]{3}$' }), Type.String({ pattern: '^(0|[1-9][0-9]{0,17})$' })),
      },
      { additionalProperties: false },
    ),
    async (s, a) => {
      const fixed = Object.fromEntries(Object.entries(a.fixedMinor).map(([c, v]) => [c, BigInt(v)]));
      await s.merchants.setFees(a.merchantId, a.bps, fixed);
      // Shown as it was given: major units per currency (EUR 0.25, not 25).
      const shown = Object.fromEntries(Object.entries(fixed).map(([c, v]) => [c, isCurrency(c) ? formatAmount(v, c) : v.toString()]));
      return { merchantId: a.merchantId, percent: a.bps / 100, fixed: shown };
    },
  ),
  'merchants.settlement': command(
    Type.Object({ merchantId: Id('mch'), delayDays: Type.Integer({ minimum: 0, maximum: 365 }) }, { additionalProperties: false }),
    async (s, a) => {
      await s.merchants.setSettlementDelay(a.merchantId, a.delayDays);
      return { merchantId: a.merchantId, settlementDelayDays: a.delayDays };
    },
  ),
  'merchants.reserve': command(
    Type.Object(
      {
        merchantId: Id('mch'),
        reserve: Type.Union([
          Type.Object({ bps: Type.Integer({ minimum: 1, maximum: 10_000 }), days: Type.Integer({ minimum: 1, maximum: 365 }) }),
          Type.Null(),
        ]),
      },
      { additionalProperties: false },
    ),
    async (s, a) => {
      await s.merchants.setReserve(a.merchantId, a.reserve);
      return { merchantId: a.merchantId, reserve: a.reserve && { percent: a.reserve.bps / 100, days: a.reserve.days } };
    },
  ),
  'keys.create': command(
    Type.Object(
      {
        merchantId: Id('mch'),
        kind: KeyKind,
        mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
        name: Type.String({ minLength: 1, maxLength: 200 }),
        allowedOrigins: Origins,
        /** A restricted key's permissions, `payments:read,balance:read` (restricted keys only). */
        permissions: Type.Optional(Type.String({ maxLength: 500 })),
      },
      { additionalProperties: false },
    ),
    async (s, a) => {
      await requireMerchant(s, a.merchantId);
      const make = (kind: 'publishable' | 'secret' | 'restricted', allowedOrigins: string[]) =>
        s.merchants.createKey(a.merchantId, { kind, mode: a.mode, name: a.name, allowedOrigins, permissions: a.permissions });
      if (a.kind !== 'both') return make(a.kind, a.allowedOrigins);
      // A new pair, for a person who lost the development keys: the API key, then the secret key.
      return { apiKey: await make('publishable', a.allowedOrigins), secretKey: await make('secret', []) };
    },
  ),
  'keys.list': command(Type.Object({ merchantId: Id('mch') }, { additionalProperties: false }), async (s, a) => {
    await requireMerchant(s, a.merchantId);
    return s.merchants.listKeys(a.merchantId);
  }),
  'keys.roll': command(
    Type.Object({ merchantId: Id('mch'), keyId: Id('key'), graceSeconds: Type.Integer({ minimum: 0, maximum: 604_800 }) }, { additionalProperties: false }),
    (s, a) => s.merchants.rollKey(a.merchantId, a.keyId, a.graceSeconds),
  ),
  'keys.origins': command(Type.Object({ merchantId: Id('mch'), keyId: Id('key'), origins: Origins }, { additionalProperties: false }), (s, a) =>
    s.merchants.setAllowedOrigins(a.merchantId, a.keyId, a.origins),
  ),
  'keys.revoke': command(Type.Object({ merchantId: Id('mch'), keyId: Id('key') }, { additionalProperties: false }), (s, a) =>
    s.merchants.revokeKey(a.merchantId, a.keyId),
  ),
  'ledger.verify': command(Type.Object({}, { additionalProperties: false }), (s) => s.balances.verifyBooks()),
  'operators.create': command(
    Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), role: Type.Optional(Type.Enum(OPERATOR_ROLES)) }, { additionalProperties: false }),
    (s, a) => s.operators.createFromCli(a.email, a.role),
  ),
  // Provider accounts (decision 0075): the credentials come in the arguments' JSON, never on a command line.
  'providerAccounts.add': command(
    Type.Object(
      {
        connector: Type.String({ minLength: 1, maxLength: 40 }),
        mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
        countries: Type.Array(Type.String({ minLength: 2, maxLength: 2 }), { minItems: 1, maxItems: 20 }),
        settings: Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 2048 })),
        credentials: Type.Unknown(),
      },
      { additionalProperties: false },
    ),
    (s, a) => s.providerAccounts.add(a),
  ),
  'providerAccounts.list': command(Type.Object({}, { additionalProperties: false }), (s) => s.providerAccounts.list()),
  'providerAccounts.disable': command(
    Type.Object({ id: Type.String({ pattern: '^pac_[0-9a-z_]+$', maxLength: 80 }) }, { additionalProperties: false }),
    (s, a) => s.providerAccounts.disable(a.id),
  ),
  'providerAccounts.check': command(
    Type.Object(
      {
        id: Type.Optional(Type.String({ pattern: '^pac_[0-9a-z_]+$', maxLength: 80 })),
        mode: Type.Optional(Type.Union([Type.Literal('test'), Type.Literal('live')])),
      },
      { additionalProperties: false },
    ),
    (s, a) => s.providerAccounts.check(a),
  ),
  // Through the running server when it holds the test-mode sandbox (docs/decisions/0043-first-hour-second-pass.md).
  'reconcile.run': command(
    Type.Object(
      {
        provider: Type.String({ minLength: 1, maxLength: 64 }),
        mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
        from: Type.String({ format: 'date-time' }),
        to: Type.String({ format: 'date-time' }),
        statement: Type.Optional(
          Type.Array(
            Type.Object({
              kind: Type.Union([Type.Literal('collection'), Type.Literal('disbursement')]),
              reference: Type.String({ maxLength: 200 }),
              status: Type.Union([Type.Literal('PENDING'), Type.Literal('SUCCESSFUL'), Type.Literal('FAILED')]),
              amount: Type.String({ maxLength: 40 }),
              currency: Type.String({ maxLength: 3 }),
              createdAt: Type.String({ format: 'date-time' }),
              externalId: Type.Optional(Type.String({ maxLength: 200 })),
            }),
            { maxItems: 100_000 },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    (s, a) =>
      s.reconciliation.reconcile({
        provider: a.provider,
        mode: a.mode,
        from: new Date(a.from),
        to: new Date(a.to),
        ...(a.statement === undefined ? {} : { statement: a.statement.map((r) => ({ ...r, createdAt: new Date(r.createdAt) })) }),
      }),
  ),
  'routes.list': command(
    Type.Object({ mode: Type.Optional(Type.Union([Type.Literal('test'), Type.Literal('live')])) }, { additionalProperties: false }),
    (s, a) => s.routes.list(a),
  ),
  'routes.set': command(
    Type.Object(
      {
        mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
        country: Type.String({ minLength: 2, maxLength: 2 }),
        kind: Type.Optional(Type.Union([Type.Literal('payment'), Type.Literal('payout')])),
        method: Type.String({ minLength: 1, maxLength: 32 }),
        // Null: back to the default.
        connectors: Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { maxItems: 10 }), Type.Null()]),
      },
      { additionalProperties: false },
    ),
    (s, a) => s.routes.set({ mode: a.mode, country: a.country.toUpperCase(), kind: a.kind ?? 'payment', method: a.method }, a.connectors, 'cli'),
  ),
  'messages.list': command(
    Type.Object(
      { to: Type.Optional(Type.String({ maxLength: 254 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
      { additionalProperties: false },
    ),
    (s, a) => s.messaging.listForOperators(a),
  ),
  'signing-keys.rotate': command(Type.Object({}, { additionalProperties: false }), async (s) => ({ kid: await s.users.tokens.rotate() })),
};

export type AdminCommands = typeof ADMIN_COMMANDS;
export type AdminCommand = keyof AdminCommands;
export type AdminArgs<C extends AdminCommand> = Static<AdminCommands[C]['args']>;
export type AdminResult<C extends AdminCommand> = Awaited<ReturnType<AdminCommands[C]['run']>>;

/** Runs a command on these services; its result as JSON would show it (dates as ISO strings). */
/**
 * Refuses arguments outside a command's schema, as the admin endpoint does for the CLI when a
 * server holds the database; a command the CLI runs on the database itself is checked here.
 */
export function checkAdminArgs<C extends AdminCommand>(name: C, args: AdminArgs<C>): void {
  const schema = ADMIN_COMMANDS[name].args;
  // What the endpoint would receive: JSON, without the undefined members.
  const sent = JSON.parse(JSON.stringify(args)) as unknown;
  if (Check(schema, sent)) return;
  const first = Errors(schema, sent)[0];
  const path = first?.instancePath.split('/').slice(1) ?? [];
  const where = path.length === 0 ? 'the arguments' : path.join('.');
  // A pattern says nothing to a person: the value it refused does.
  const value = path.reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], sent);
  const what = first?.keyword === 'pattern' ? `${JSON.stringify(value)} is not valid` : (first?.message ?? 'are not valid');
  throw new ApiError('validation_error', `${where} ${what}`);
}

export async function runAdminCommand<C extends AdminCommand>(services: Services, name: C, args: AdminArgs<C>): Promise<AdminResult<C>> {
  const { run } = ADMIN_COMMANDS[name] as unknown as { run: (s: Services, a: AdminArgs<C>) => Promise<AdminResult<C>> };
  return JSON.parse(JSON.stringify(await run(services, args))) as AdminResult<C>;
}

export const adminPath = (name: AdminCommand) => `/admin/${name.replace('.', '/')}`;

/** What the server writes into the data directory for the CLI: where it listens and the token. */
export interface AdminFile {
  url: string;
  token: string;
  pid: number;
  /** The server's database: the CLI asks it only when its own configuration names the same kind. */
  database?: AdminDatabase;
}

/** A server on PostgreSQL publishes its endpoint too in development, for the test-mode sandbox it runs. */
export type AdminDatabase = 'embedded' | 'postgresql';

export const ADMIN_FILE = 'admin.json';

/** Reads the running server's admin.json, or undefined when there is none (or it cannot be read). */
export function readAdminFile(dataDir: string): AdminFile | undefined {
  try {
    const file = JSON.parse(readFileSync(join(dataDir, ADMIN_FILE), 'utf8')) as Partial<AdminFile>;
    if (typeof file.url === 'string' && typeof file.token === 'string' && typeof file.pid === 'number') return file as AdminFile;
  } catch {
    /* none, or half written */
  }
  return undefined;
}

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}

function bearer(request: FastifyRequest): string {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
}

/**
 * Adds the admin endpoint to a server on the embedded database, and writes admin.json (mode
 * 0600) once it listens. Only connections from this machine's loopback reach it (others get
 * 404, as for any unknown path; a browser's request, which carries Origin, too), and only with
 * the token: a new random one each start, so a stale file is worth nothing.
 */
export async function registerAdminRoutes(
  app: FastifyInstance,
  dataDir: string,
  database: AdminDatabase = 'embedded',
): Promise<{ publish(url: string): void; remove(): void }> {
  const token = randomBytes(32).toString('base64url');
  const expected = Buffer.from(token);
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => {
      if (!isLoopback(request.socket.remoteAddress) || request.headers.origin !== undefined) {
        throw new ApiError('not_found', `No route ${request.method} ${request.url.split('?')[0]}`);
      }
      const given = Buffer.from(bearer(request));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new ApiError('admin_token_invalid', `Send the token of ${join(dataDir, ADMIN_FILE)} as Authorization: Bearer (npx caisse does)`);
      }
    });
    for (const name of Object.keys(ADMIN_COMMANDS) as AdminCommand[]) {
      scope.post(adminPath(name), { config: { auth: 'none' }, schema: { hide: true, body: ADMIN_COMMANDS[name].args } }, async (request) =>
        runAdminCommand(app.services, name, request.body as never),
      );
    }
  });
  const file = join(dataDir, ADMIN_FILE);
  return {
    publish(url) {
      // A new file each time: the mode applies only to a file being created.
      rmSync(file, { force: true });
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, JSON.stringify({ url, token, pid: process.pid, database } satisfies AdminFile), { mode: 0o600 });
    },
    remove() {
      if (readAdminFile(dataDir)?.token === token) rmSync(file, { force: true });
    },
  };
}
