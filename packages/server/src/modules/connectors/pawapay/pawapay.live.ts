/**
 * What a live pawaPay account must not hold (docs/spec/providers.md, "pawapay"): pawaPay's own
 * sandbox API, whose payments are not real, or our sandbox's test token. The shape is the one the
 * definitions' `liveProblems` answer (connectors.live.ts): the setting, and why.
 */

/** pawaPay's sandbox API host: never a live account's. */
export const PAWAPAY_SANDBOX_HOST = 'api.sandbox.pawapay.io';
/** The token test mode's connector sends Caisse's sandbox: never a live account's. */
export const PAWAPAY_SANDBOX_TOKEN = 'pawapay_sandbox_token';

export function pawapayLiveProblems(settings: Readonly<Record<string, unknown>>): { setting: string; message: string }[] {
  const problems: { setting: string; message: string }[] = [];
  const base = typeof settings.baseUrl === 'string' ? settings.baseUrl : undefined;
  let host: string | undefined;
  try {
    host = base === undefined ? undefined : new URL(base).hostname.toLowerCase();
  } catch {
    host = undefined;
  }
  if (host === PAWAPAY_SANDBOX_HOST || host?.endsWith('.sandbox.pawapay.io') === true)
    problems.push({ setting: 'baseUrl', message: `is pawaPay's sandbox (${host}), whose payments are not real: use https://api.pawapay.io` });
  if (settings.apiToken === PAWAPAY_SANDBOX_TOKEN)
    problems.push({ setting: 'apiToken', message: "is Caisse's sandbox token: make an API token in pawaPay's production dashboard" });
  return problems;
}

/** A token of the form pawaPay issues (a signed JWT: three base64url parts, the first a JSON header). */
export function looksLikePawapayToken(token: string): boolean {
  return /^eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}
