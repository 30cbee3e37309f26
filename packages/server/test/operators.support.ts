import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { SECOND } from '../src/platform/clock.ts';
import { appWithSandbox } from './connectors.support.ts';
import { createMerchant, type TestContext } from './harness.ts';

/** An operator's browser: its session cookie and CSRF token. */
export interface OperatorBrowser {
  cookie: string;
  csrf: string;
}

export type OperatorRoleName = 'admin' | 'compliance' | 'finance' | 'support';

/**
 * The operator console as a test drives it: `send` calls /operator/api with a browser's cookie and
 * CSRF token, `operator(role)` makes an operator as the CLI does, enrols its TOTP and answers its
 * signed-in browser (the clock moves a TOTP step on, so the next code is a new one).
 */
export function operatorConsole(ctx: TestContext) {
  function send(method: 'GET' | 'POST' | 'PUT', url: string, who?: OperatorBrowser, body?: unknown): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = who ? { cookie: who.cookie, 'x-csrf-token': who.csrf } : {};
    return ctx.app.inject({ method, url, headers, ...(body !== undefined ? { payload: body as object } : {}) });
  }

  async function operator(role: OperatorRoleName): Promise<OperatorBrowser & { email: string; id: string }> {
    const email = `${role}-${Math.random().toString(36).slice(2, 8)}@ops.example`;
    const { password, id } = await ctx.services.operators.createFromCli(email, role);
    const res = await send('POST', '/operator/api/login', undefined, { email, password });
    expect(res.statusCode, res.body).toBe(200);
    const browser = { cookie: String(res.headers['set-cookie']).split(';')[0] as string, csrf: res.json().csrfToken as string };
    const { secret } = (await send('POST', '/operator/api/totp', browser, {})).json();
    const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: ctx.clock.now().getTime() });
    expect((await send('POST', '/operator/api/totp/confirm', browser, { code })).statusCode).toBe(200);
    ctx.clock.advance(30 * SECOND);
    return { ...browser, email, id };
  }

  return { send, operator };
}

/** The app on a MoMo sandbox (connectors.support.ts), the console's driver and one merchant. */
export async function consoleWithSandbox(merchantName: string) {
  const { ctx, sandbox } = await appWithSandbox({ start: new Date('2026-11-23T10:00:00.000Z') });
  const shop = await createMerchant(ctx, merchantName);
  const close = async () => {
    await ctx.close();
    await sandbox.close();
  };
  return { ctx, sandbox, shop, ops: operatorConsole(ctx), close };
}
