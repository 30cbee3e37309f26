import type { Transporter } from 'nodemailer';
import type { EmailConfig, SmsConfig } from '../../config.ts';

/** A provider refused or could not take a message. The message never holds a credential. */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
  ) {
    super(`${provider}: ${message}`);
    this.name = 'ProviderError';
  }
}

export interface SmsTransport {
  readonly name: string;
  send(to: string, body: string): Promise<{ ref: string | null }>;
}

export interface EmailTransport {
  readonly name: string;
  send(to: string, subject: string, body: string): Promise<{ ref: string | null }>;
}

const PROVIDER_TIMEOUT_MS = 10_000;

/** Africa's Talking status codes that mean the message was taken: Processed, Sent, Queued. */
const AT_ACCEPTED = new Set([100, 101, 102]);

interface AfricasTalkingAnswer {
  SMSMessageData?: { Message?: string; Recipients?: { statusCode?: number | string; status?: string; messageId?: string }[] };
}

/**
 * Africa's Talking bulk SMS API (it reaches MTN and Orange Cameroon): `POST {url}/version1/messaging`
 * with the `apiKey` header and a form body `username`, `to`, `message` and optionally `from`
 * (the registered sender id). The answer lists one status per recipient.
 */
export function africasTalkingSms(cfg: Extract<SmsConfig, { provider: 'africastalking' }>): SmsTransport {
  return {
    name: 'africastalking',
    async send(to, body) {
      const form = new URLSearchParams({ username: cfg.username, to, message: body });
      if (cfg.senderId) form.set('from', cfg.senderId);
      let res: Response;
      try {
        res = await fetch(`${cfg.url}/version1/messaging`, {
          method: 'POST',
          headers: { apiKey: cfg.apiKey, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
          signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
        });
      } catch (err) {
        throw new ProviderError('africastalking', `request failed (${(err as Error).name})`);
      }
      const text = await res.text();
      if (!res.ok) throw new ProviderError('africastalking', `HTTP ${res.status}`);
      let answer: AfricasTalkingAnswer;
      try {
        answer = JSON.parse(text) as AfricasTalkingAnswer;
      } catch {
        throw new ProviderError('africastalking', 'the answer is not JSON');
      }
      const recipient = answer.SMSMessageData?.Recipients?.[0];
      const status = Number(recipient?.statusCode);
      if (!recipient || !AT_ACCEPTED.has(status)) {
        throw new ProviderError('africastalking', `not accepted (${recipient?.status ?? answer.SMSMessageData?.Message ?? 'no recipient in the answer'})`);
      }
      return { ref: recipient.messageId ?? null };
    },
  };
}

/** E-mail over SMTP with nodemailer (`smtp://user:password@host:587`, STARTTLS when offered; `smtps://` for TLS). */
export function smtpEmail(cfg: Extract<EmailConfig, { provider: 'smtp' }>): EmailTransport {
  // nodemailer loads with the first e-mail, not with every server: only SMTP deployments use it.
  let transport: Promise<Transporter> | undefined;
  const open = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: cfg.url,
        connectionTimeout: PROVIDER_TIMEOUT_MS,
        greetingTimeout: PROVIDER_TIMEOUT_MS,
        socketTimeout: PROVIDER_TIMEOUT_MS,
      }),
    ));
  return {
    name: 'smtp',
    async send(to, subject, body) {
      const smtp = await open();
      try {
        const info = await smtp.sendMail({ from: cfg.from, to, subject, text: body });
        return { ref: typeof info.messageId === 'string' ? info.messageId : null };
      } catch (err) {
        const code = (err as { code?: string; responseCode?: number }).responseCode ?? (err as { code?: string }).code ?? 'error';
        throw new ProviderError('smtp', `not accepted (${code})`);
      }
    },
  };
}
