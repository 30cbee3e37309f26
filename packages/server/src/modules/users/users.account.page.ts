import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatAmount, formatDateTime } from '@caisse/intl';
import { maskPhone } from '../../platform/codes.ts';
import { decrypt, encrypt } from '../../platform/crypto.ts';
import { ApiError, type ErrorCode } from '../../platform/errors.ts';
import { escapeHtml } from '../../platform/html.ts';
import { clientAddress } from '../../platform/http/rate-limit.ts';
import { isCrossSite } from '../../platform/http/same-site.ts';
import { type Language, type MessageId, requestedLanguages, type Translator, translator } from '../../platform/i18n.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import { ACCOUNT_SESSION_MS } from './users.account.ts';
import type { UsersService } from './users.service.ts';

/**
 * "My Caisse account": the customer's own page on the gateway's origin, beside the hosted
 * checkout. Signed in here (password, then a code by SMS; a session cookie of its own, never a
 * merchant's token), the customer sees every balance and their whole history across merchants,
 * which a merchant's key does not show. Server-rendered HTML forms, no script: `/account` for
 * live customers, `/account/test` for test mode.
 */

const KIND_TEXTS: Record<string, MessageId> = {
  charge: 'account.kind.charge',
  mobile_money_charge: 'account.kind.charge',
  refund: 'account.kind.refund',
  topup: 'account.kind.topup',
  funding: 'account.kind.funding',
  customer_merge: 'account.kind.merge',
};

/** What a refused form says, by the problem's code; anything else is the generic line. */
const ERROR_TEXTS: Partial<Record<ErrorCode, MessageId>> = {
  invalid_credentials: 'account.error.credentials',
  phone_not_verified: 'account.error.credentials',
  phone_invalid: 'account.error.phone',
  otp_incorrect: 'account.error.code',
  otp_attempts_exceeded: 'account.error.limited',
  otp_rate_limited: 'account.error.limited',
  login_locked: 'account.error.limited',
  rate_limited: 'account.error.limited',
};

const STYLE =
  'body{font-family:system-ui,sans-serif;background:#f6f7f9;color:#1d2330;margin:0}main{max-width:40rem;margin:8vh auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.08)}' +
  'h1{font-size:1.4rem;margin:0 0 1rem}label{display:block;margin:.8rem 0 .2rem}input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}button{font:inherit;margin-top:1rem;padding:.5rem 1rem}' +
  'table{width:100%;border-collapse:collapse;margin-top:.5rem}th,td{text-align:left;padding:.35rem;border-bottom:1px solid #e3e6ea}.num{text-align:right;white-space:nowrap}.error{color:#b00020}.mode{color:#8a5a00}';

function cookieName(mode: KeyMode, production: boolean): string {
  const name = mode === 'test' ? 'caisse_account_test' : 'caisse_account';
  return production ? `__Host-${name}` : name;
}

function page(t: Translator, mode: KeyMode, body: string): string {
  const title = escapeHtml(t.text('account.title'));
  const banner = mode === 'test' ? `<p class="mode">${escapeHtml(t.text('account.testMode'))}</p>` : '';
  return `<!doctype html>
<html lang="${t.language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${STYLE}</style></head>
<body><main><h1>${title}</h1>${banner}${body}</main></body>
</html>
`;
}

function errorLine(t: Translator, err: ApiError | undefined): string {
  if (!err) return '';
  return `<p class="error" role="alert">${escapeHtml(t.text(ERROR_TEXTS[err.code] ?? 'account.error.other'))}</p>`;
}

function signInForm(t: Translator, base: string, phoneNumber = '', err?: ApiError): string {
  return `<p>${escapeHtml(t.text('account.intro'))}</p>${errorLine(t, err)}
<form method="post" action="${base}/sign-in">
<label for="phoneNumber">${escapeHtml(t.text('account.phone'))}</label><input id="phoneNumber" name="phoneNumber" type="tel" autocomplete="tel" required value="${escapeHtml(phoneNumber)}">
<label for="password">${escapeHtml(t.text('account.password'))}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${escapeHtml(t.text('account.continue'))}</button>
</form>`;
}

/**
 * The code step. The number travels to the next step sealed with the master key (`pending`) and
 * is shown masked: a page answer, error or not, never holds a customer's number in clear.
 */
function codeForm(t: Translator, base: string, phoneNumber: string, masterKey: Buffer, err?: ApiError): string {
  const pending = encrypt(masterKey, phoneNumber).toString('base64url');
  return `<p>${escapeHtml(t.text('account.codeSent', { phone: maskPhone(phoneNumber) }))}</p>${errorLine(t, err)}
<form method="post" action="${base}/code">
<input type="hidden" name="pending" value="${pending}">
<label for="code">${escapeHtml(t.text('account.code'))}</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required>
<button type="submit">${escapeHtml(t.text('account.signIn'))}</button>
</form>`;
}

type History = Awaited<ReturnType<UsersService['account']['history']>>;

function historyView(t: Translator, base: string, h: History): string {
  const money = (amount: string, currency: string) => escapeHtml(formatAmount(amount, currency, t.locale));
  const balances =
    h.balances.length === 0
      ? `<p>${money('0', 'XAF')}</p>`
      : `<ul>${h.balances.map((b) => `<li class="num">${money(b.amount, b.currency)}</li>`).join('')}</ul>`;
  const rows = h.movements
    .map((m) => {
      const kind = KIND_TEXTS[m.kind];
      return `<tr><td>${escapeHtml(formatDateTime(m.createdAt, t.locale))}</td><td>${escapeHtml(m.merchantName)}</td><td>${escapeHtml(kind ? t.text(kind) : m.kind)}</td><td>${escapeHtml(m.reference ?? '')}</td><td class="num">${money(m.amount, m.currency)}</td></tr>`;
    })
    .join('\n');
  const history =
    h.movements.length === 0
      ? `<p>${escapeHtml(t.text('account.noMovements'))}</p>`
      : `<table><thead><tr><th scope="col">${escapeHtml(t.text('account.column.date'))}</th><th scope="col">${escapeHtml(t.text('account.column.merchant'))}</th><th scope="col">${escapeHtml(t.text('account.column.what'))}</th><th scope="col">${escapeHtml(t.text('account.column.reference'))}</th><th scope="col" class="num">${escapeHtml(t.text('account.column.amount'))}</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
  return `<h2>${escapeHtml(t.text('account.balance'))}</h2>${balances}<h2>${escapeHtml(t.text('account.history'))}</h2>${history}
<form method="post" action="${base}/sign-out"><button type="submit">${escapeHtml(t.text('account.signOut'))}</button></form>`;
}

/** An HTML form's fields (application/x-www-form-urlencoded), each a short string. */
function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.slice(0, 200) : '';
}

export default async function accountPage(app: FastifyInstance) {
  const users = app.services.users;
  const production = app.deps.config.mode === 'production';
  const masterKey = app.deps.config.masterKey;
  /** The number a code step's `pending` field seals; undefined when absent or not ours. */
  const unsealed = (pending: string): string | undefined => {
    if (pending === '') return undefined;
    try {
      return decrypt(masterKey, Buffer.from(pending, 'base64url'));
    } catch {
      return '';
    }
  };
  // Only this plugin's routes read HTML forms; the API stays JSON-only.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  // Its forms come from its own pages only: another site cannot sign a visitor in or out.
  app.addHook('onRequest', async (request) => {
    if (request.method === 'POST' && isCrossSite(request, { nullOrigin: 'form' }))
      throw new ApiError('csrf_token_invalid', 'The account page takes its forms from its own pages only');
  });
  const config = { auth: 'none' as const, csp: 'page' as const };
  const schema = { hide: true };

  const html = (reply: FastifyReply, status: number, t: Translator, mode: KeyMode, body: string) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(page(t, mode, body));
  const tokenOf = (request: FastifyRequest, mode: KeyMode) => {
    const header = request.headers.cookie;
    return typeof header === 'string' && header !== '' ? parseCookie(header)[cookieName(mode, production)] : undefined;
  };
  const cookie = (mode: KeyMode, value: string, maxAge: number) =>
    stringifySetCookie(cookieName(mode, production), value, { httpOnly: true, secure: production, sameSite: 'strict', path: '/', maxAge });
  const translate = (request: FastifyRequest, saved?: Language | null) =>
    translator({ saved, requested: requestedLanguages(request.headers['accept-language']) });
  /** A refused form shows its page again with the reason; anything else is the server's error. */
  const refused = (err: unknown): ApiError => {
    if (err instanceof ApiError && err.status < 500) return err;
    throw err;
  };

  for (const mode of ['live', 'test'] as const) {
    const base = mode === 'live' ? '/account' : '/account/test';

    app.get(base, { config, schema }, async (request, reply) => {
      const session = await users.account.session(mode, tokenOf(request, mode));
      if (!session) return html(reply, 200, translate(request), mode, signInForm(translate(request), base));
      const t = translate(request, session.language);
      return html(reply, 200, t, mode, historyView(t, base, await users.account.history(mode, session.userId)));
    });

    app.post(`${base}/sign-in`, { config, schema }, async (request, reply) => {
      const t = translate(request);
      const phoneNumber = field(request.body, 'phoneNumber').replace(/\s/g, '');
      try {
        await users.account.sendCode(
          mode,
          { phoneNumber, password: field(request.body, 'password') },
          clientAddress(request),
          requestedLanguages(request.headers['accept-language']),
        );
      } catch (err) {
        const e = refused(err);
        // A refused sign-in does not send the number back: an error answer never echoes a customer's data.
        return html(reply, e.status, t, mode, signInForm(t, base, '', e));
      }
      return html(reply, 200, t, mode, codeForm(t, base, phoneNumber, masterKey));
    });

    app.post(`${base}/code`, { config, schema }, async (request, reply) => {
      const phoneNumber = unsealed(field(request.body, 'pending')) ?? field(request.body, 'phoneNumber');
      let session: { token: string };
      try {
        session = await users.account.confirm(mode, { phoneNumber, code: field(request.body, 'code').trim() });
      } catch (err) {
        const e = refused(err);
        const t = translate(request);
        return html(reply, e.status, t, mode, codeForm(t, base, phoneNumber, masterKey, e));
      }
      return reply
        .code(303)
        .header('set-cookie', cookie(mode, session.token, ACCOUNT_SESSION_MS / 1000))
        .header('location', base)
        .send();
    });

    app.post(`${base}/sign-out`, { config, schema }, async (request, reply) => {
      const token = tokenOf(request, mode);
      if (token !== undefined) await users.account.signOut(token);
      return reply
        .code(303)
        .header('set-cookie', cookie(mode, '', 0))
        .header('location', base)
        .send();
    });
  }
}
