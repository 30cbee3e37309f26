import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { ApiError, type ErrorCode } from '../errors.ts';

/**
 * Request validation. Bodies are validated strictly (no type coercion, unknown fields refused);
 * query strings, params and headers are coerced from their text form. A schema may name the
 * error code its failures carry with `'x-code'` (e.g. `amount_invalid` on the amount field).
 */
function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce,
    removeAdditional: false,
    useDefaults: true,
    allErrors: true,
    verbose: true,
    strict: false,
  });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  ajv.addKeyword({ keyword: 'x-code', schemaType: 'string' });
  return ajv;
}

const strictAjv = makeAjv(false);
const coercingAjv = makeAjv(true);

function paramOf(part: string, e: ErrorObject): string {
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') path.push(String((e.params as { missingProperty: string }).missingProperty));
  if (e.keyword === 'additionalProperties') path.push(String((e.params as { additionalProperty: string }).additionalProperty));
  if (path.length === 0) return part;
  return path.join('.');
}

function messageOf(param: string, e: ErrorObject): string {
  switch (e.keyword) {
    case 'required':
      return `${param} is required`;
    case 'additionalProperties':
      return `${param} is not a known parameter`;
    case 'type':
      return `${param} must be of type ${(e.params as { type: string }).type}`;
    default:
      return `${param} ${e.message ?? 'is not valid'}`;
  }
}

/** Turns Ajv's errors into one ApiError: unknown fields first, then field codes, then the list. */
export function toApiError(part: string, errors: ErrorObject[]): ApiError {
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  if (unknown) {
    const param = paramOf(part, unknown);
    return new ApiError('parameter_unknown', `Unknown parameter: ${param}`, { param });
  }
  // Alternatives (anyOf/oneOf) report every branch; keep the most specific error.
  const coded = errors.find((e) => typeof (e.parentSchema as Record<string, unknown> | undefined)?.['x-code'] === 'string');
  if (coded) {
    const param = paramOf(part, coded);
    const code = (coded.parentSchema as Record<string, unknown>)['x-code'] as ErrorCode;
    return new ApiError(code, messageOf(param, coded), { param });
  }
  const list = errors
    .filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf')
    .map((e) => {
      const param = paramOf(part, e);
      return { param, message: messageOf(param, e) };
    });
  const first = list[0] ?? { param: part, message: `${part} is not valid` };
  return new ApiError('validation_error', first.message, { param: first.param, errors: list });
}

/**
 * The path of the first string (value or key) holding a NUL character, which PostgreSQL text
 * cannot store: refused up front as bad input rather than failing in the database.
 */
export function findNul(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key];
    const found = findNul(inner, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const part = httpPart ?? 'body';
  const ajv = part === 'body' ? strictAjv : coercingAjv;
  const validate: ValidateFunction = ajv.compile(schema as object);
  // A POST without a body (no content) reads as an empty object, so routes whose fields are all
  // optional (cancel, resend, roll-secret) accept it; required fields still fail as usual.
  const emptyIsObject = part === 'body' && (schema as { type?: unknown }).type === 'object';
  return (input: unknown) => {
    const data = emptyIsObject && (input === null || input === undefined) ? {} : input;
    const nul = findNul(data);
    if (nul) {
      const param = nul.length > 0 ? nul.join('.') : part;
      const message = `${param} must not contain NUL characters`;
      return { error: new ApiError('validation_error', message, { param, errors: [{ param, message }] }) };
    }
    if (validate(data)) return { value: data };
    return { error: toApiError(part, validate.errors ?? []) };
  };
};
