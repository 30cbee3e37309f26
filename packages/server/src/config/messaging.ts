import { ConfigError, type Env, httpUrl, oneOf, required } from './env.ts';

export type SmsConfig = { provider: 'outbox' } | { provider: 'africastalking'; url: string; username: string; apiKey: string; senderId: string | undefined };
export type EmailConfig = { provider: 'outbox' } | { provider: 'smtp'; url: string; from: string };
export interface MessagingConfig {
  sms: SmsConfig;
  email: EmailConfig;
}

/** SMS and e-mail providers for live mode (docs/spec/otp-and-charge.md). Secrets stay in the config object only. */
export function messaging(env: Env): MessagingConfig {
  const smsProvider = oneOf(env, 'CAISSE_SMS_PROVIDER', ['outbox', 'africastalking'] as const, 'outbox');
  let sms: SmsConfig = { provider: 'outbox' };
  if (smsProvider === 'africastalking') {
    const why = 'when CAISSE_SMS_PROVIDER=africastalking';
    const username = required(env, 'AFRICASTALKING_USERNAME', why);
    const apiKey = required(env, 'AFRICASTALKING_API_KEY', why);
    const senderId = env.AFRICASTALKING_SENDER_ID?.trim() || undefined;
    if (senderId !== undefined && !/^[A-Za-z0-9 +]{1,16}$/.test(senderId)) {
      throw new ConfigError('AFRICASTALKING_SENDER_ID', 'must be a registered short code or alphanumeric sender id (1 to 16 letters or digits)');
    }
    const fallback = username === 'sandbox' ? 'https://api.sandbox.africastalking.com' : 'https://api.africastalking.com';
    sms = { provider: 'africastalking', url: httpUrl(env, 'AFRICASTALKING_URL', fallback), username, apiKey, senderId };
  }
  const emailProvider = oneOf(env, 'CAISSE_EMAIL_PROVIDER', ['outbox', 'smtp'] as const, 'outbox');
  let email: EmailConfig = { provider: 'outbox' };
  if (emailProvider === 'smtp') {
    const url = required(env, 'SMTP_URL', 'when CAISSE_EMAIL_PROVIDER=smtp');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ConfigError('SMTP_URL', 'is not a URL (expected smtp://user:password@host:587 or smtps://…:465)');
    }
    if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
      throw new ConfigError('SMTP_URL', `must use smtp:// or smtps://, got ${parsed.protocol}//`);
    }
    const from = env.CAISSE_MAIL_FROM?.trim() || 'Caisse <no-reply@caisse.local>';
    if (!/^[^<>@\s]+@[^<>@\s]+$|^[^<>]*<[^<>@\s]+@[^<>@\s]+>$/.test(from)) {
      throw new ConfigError('CAISSE_MAIL_FROM', 'must be an address, e.g. "Shop <no-reply@shop.cm>" or no-reply@shop.cm');
    }
    email = { provider: 'smtp', url, from };
  }
  return { sms, email };
}
