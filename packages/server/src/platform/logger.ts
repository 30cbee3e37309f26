import { type DestinationStream, type Logger, pino } from 'pino';
import pinoPretty from 'pino-pretty';

/**
 * Secrets recognisable by their form: keys (`pk_…`, `sk_…`), session tokens (`ps_…`), webhook
 * secrets (`whsec_…`), OTP tokens (`otp_…`), dashboard invitation tokens (`inv_…`) and JWTs (user access tokens).
 */
// At least 16 characters after the prefix: every real secret is longer, and error codes such as
// `otp_incorrect` or `otp_rate_limited` (which problem bodies must carry intact) are shorter.
// Only webhook secrets are base64 (with + / =): the others are base62, so a path such as
// `ps_…/sk_test_…` is two secrets, each masked.
const PREFIXED_SECRET = /\b(?:(ps|pk_test|pk_live|sk_test|sk_live|otp|inv)_[0-9A-Za-z]{16,}|(whsec)_[0-9A-Za-z+/=]{16,})/g;
const JWT = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
/** E.164 phone numbers, raw or URL-encoded (`%2B`): kept are the country part and the last 2 digits. */
const PHONE = /(\+|%2B)(\d{3})(\d{4,10})(\d{2})(?!\d)/gi;
/** Query parameters named like a secret. */
const SECRET_PARAM = /([?&][^=&\s"#]*(?:password|passwd|token|secret|otp|apikey|api_key|api-key|code)[^=&\s"#]*=)[^&\s"#]*/gi;
/**
 * JSON members named like a secret, at any depth, and also inside JSON that was put in a string
 * (an error message quoting a body: `\"password\":\"…\"`, group 2 holds the backslashes):
 * their string or number value is censored.
 */
const SECRET_MEMBER =
  /((\\*)"[^"\\]*(?:password|passwd|secret|token|otp|apikey|api_key|api-key|authorization|cookie)[^"\\]*\2"\s*:\s*)(?:\2"(?:[^"\\]|\\.)*?\2"|-?\d+(?:\.\d+)?)/gi;
/** Members named `…code` holding 4 to 8 digits (a one-time code); error codes stay readable. */
const DIGIT_CODE_MEMBER = /((\\*)"[^"\\]*code\2"\s*:\s*)(?:\2"\d{4,8}\2"|\d{4,8}(?![\d.]))/gi;
/** JSON members that hold a phone number without its `+`. */
const PHONE_MEMBER = /((\\*)"[^"\\]*(?:phone|msisdn|recipient)[^"\\]*\2"\s*:\s*\2"\+?)(\d{3})\d{4,10}(\d{2})(?=\2")/gi;

const censorMember = (_m: string, lead: string, bs: string) => `${lead}${bs}"[redacted]${bs}"`;

function maskPhone(_m: string, plus: string, head: string, middle: string, tail: string): string {
  return `${plus}${head}${'*'.repeat(middle.length)}${tail}`;
}

/** Masks every secret and phone number this file knows how to recognise in a piece of text. */
export function redactText(text: string): string {
  return text
    .replace(SECRET_MEMBER, censorMember)
    .replace(DIGIT_CODE_MEMBER, censorMember)
    .replace(PHONE_MEMBER, (_m, lead: string, _bs: string, head: string, tail: string) => `${lead}${head}******${tail}`)
    .replace(PREFIXED_SECRET, (_m, prefix: string | undefined, whsec: string | undefined) => `${prefix ?? whsec}_[redacted]`)
    .replace(JWT, 'eyJ[redacted]')
    .replace(SECRET_PARAM, '$1[redacted]')
    .replace(PHONE, maskPhone);
}

/** Secrets that may appear in a URL (session tokens, keys, query parameters): masked before logging. */
export function redactUrl(url: string): string {
  return redactText(url);
}

/**
 * pino JSON logs. Request logs carry the method, the masked URL and the request id; headers and
 * bodies are never logged, any field named like a secret is censored wherever it appears, and
 * every line is passed through `redactText` before it is written (keys, tokens, JWTs and phone
 * numbers are masked even inside error messages).
 */
export function createLogger(opts: { level: string; stream?: DestinationStream; format?: 'pretty' | 'json'; toStderr?: boolean }): Logger {
  const fd = opts.toStderr === true ? 2 : 1;
  const stream = opts.stream ?? (opts.format === 'pretty' ? prettyStream(fd) : fd === 2 ? pino.destination({ dest: 2, sync: true }) : undefined);
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
          'phoneNumber',
          '*.phoneNumber',
        ],
        censor: (value: unknown, path: string[]) => (path.at(-1) === 'phoneNumber' && typeof value === 'string' ? redactText(value) : '[redacted]'),
      },
      // The last net: whatever a module logs, known secret shapes never reach the stream.
      hooks: { streamWrite: redactText },
      serializers: {
        req(req: { method: string; url: string; id: string }) {
          return { method: req.method, url: redactUrl(req.url), requestId: req.id };
        },
        res(res: { statusCode: number }) {
          return { statusCode: res.statusCode };
        },
      },
    },
    stream,
  );
}

interface LogEntry {
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  [key: string]: unknown;
}

/**
 * Readable lines for a person at a terminal (CAISSE_LOG_FORMAT=pretty, the default in
 * development when stdout is a TTY): time, level, message, then the other fields; a request is
 * `GET /gateway 201 4 ms`. It receives the JSON line after redaction, so it shows no more.
 */
function prettyStream(fd: 1 | 2): DestinationStream {
  return pinoPretty({
    destination: fd,
    colorize: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,req,res,responseTime,reqId',
    singleLine: true,
    messageFormat: (log: LogEntry, messageKey: string) => {
      if (log.req?.method === undefined || log.res?.statusCode === undefined) return String(log[messageKey] ?? '');
      const ms = typeof log.responseTime === 'number' ? ` ${log.responseTime.toFixed(0)} ms` : '';
      return `${log.req.method} ${log.req.url ?? ''} ${log.res.statusCode}${ms}`;
    },
  });
}
