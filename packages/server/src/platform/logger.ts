import { type DestinationStream, type Logger, pino } from 'pino';

/** Secrets that may appear in a URL path (session tokens, keys): masked before anything logs it. */
const SECRET_IN_URL = /\b(ps|pk_test|pk_live|sk_test|sk_live|whsec|otp)_[0-9A-Za-z]+/g;

export function redactUrl(url: string): string {
  return url.replace(SECRET_IN_URL, '$1_[redacted]');
}

/**
 * pino JSON logs. Request logs carry the method, the masked URL and the request id; headers and
 * bodies are never logged, and any field named like a secret is censored wherever it appears.
 */
export function createLogger(opts: { level: string; stream?: DestinationStream }): Logger {
  return pino(
    {
      level: opts.level,
      redact: {
        paths: [
          'password',
          'otp',
          'token',
          'secret',
          'apiKey',
          'secretKey',
          'authorizationToken',
          '*.password',
          '*.otp',
          '*.token',
          '*.secret',
          '*.apiKey',
          '*.secretKey',
          '*.authorizationToken',
          'headers.authorization',
          'headers["x-api-key"]',
          'headers["x-otp-token"]',
          'headers.cookie',
        ],
        censor: '[redacted]',
      },
      serializers: {
        req(req: { method: string; url: string; id: string }) {
          return { method: req.method, url: redactUrl(req.url), requestId: req.id };
        },
        res(res: { statusCode: number }) {
          return { statusCode: res.statusCode };
        },
      },
    },
    opts.stream,
  );
}
