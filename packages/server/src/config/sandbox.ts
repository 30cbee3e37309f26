import { aliased, type Env } from './env.ts';

/**
 * The providers' sandbox test mode uses (modules/connectors/sandbox). The providers' own accounts
 * are not read here: each provider's description declares its variables (`connectorSettings`).
 */
export interface SandboxConfig {
  /**
   * CAISSE_SANDBOX_URL (alias CAISSE_MOMO_SANDBOX_URL, its first name): test mode never calls a
   * real provider. Unset in development: `start` runs one in-process. Unset otherwise: test-mode
   * provider requests answer 503 `provider_unavailable`.
   */
  url: string | undefined;
  /**
   * CAISSE_SANDBOX_CALLBACKS_URL (alias CAISSE_MOMO_SANDBOX_CALLBACK_URL): this server's callbacks
   * base as the sandbox reaches it (`https://gw.example/callbacks`), each provider's under its
   * name. Unset: this server's own port on loopback (the registry's default).
   */
  callbacksUrl: string | undefined;
}

/**
 * Test mode's sandbox: CAISSE_SANDBOX_URL and CAISSE_SANDBOX_CALLBACKS_URL, or their first names
 * (CAISSE_MOMO_SANDBOX_URL, and CAISSE_MOMO_SANDBOX_CALLBACK_URL, one provider's callback URL whose
 * last segment is dropped), kept as aliases (docs/decisions/0065-connector-folders.md). Both names
 * with different values: refused, rather than one silently winning.
 */
export function sandbox(env: Env): SandboxConfig {
  const url = aliased(env, 'CAISSE_SANDBOX_URL', 'CAISSE_MOMO_SANDBOX_URL', (v) => v);
  const callbacksUrl = aliased(env, 'CAISSE_SANDBOX_CALLBACKS_URL', 'CAISSE_MOMO_SANDBOX_CALLBACK_URL', (v) => v.replace(/\/[^/]*$/, ''));
  return { url, callbacksUrl };
}
