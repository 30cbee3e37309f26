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

/** The values a failed enum (or a union of constants, as TypeBox writes one) allows; undefined for other errors. */
function allowedValues(e: ErrorObject): unknown[] | undefined {
  if (e.keyword === 'enum') return (e.params as { allowedValues: unknown[] }).allowedValues;
  if ((e.keyword === 'anyOf' || e.keyword === 'oneOf') && Array.isArray(e.schema) && e.schema.length > 0) {
    const branches = e.schema as Record<string, unknown>[];
    if (branches.every((b) => b !== null && typeof b === 'object' && 'const' in b)) return branches.map((b) => b.const);
  }
  return undefined;
}

const isBlank = (value: unknown) => typeof value === 'string' && value.trim() === '';

/** "a string, a number or a boolean" for a union of types (metadata values), else undefined. */
function typeAlternatives(e: ErrorObject): string | undefined {
  if ((e.keyword !== 'anyOf' && e.keyword !== 'oneOf') || !Array.isArray(e.schema)) return undefined;
  const types = (e.schema as { type?: unknown }[]).map((b) => b?.type);
  if (!types.every((t): t is string => typeof t === 'string')) return undefined;
  const named = types.map((t) => `${/^[aeiou]/.test(t) ? 'an' : 'a'} ${t}`);
  return named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} or ${named[named.length - 1]}`;
}

/** A key refused by `propertyNames` (a metadata key): named, since the path stops at the object. */
function keyMessage(param: string, key: string, e: ErrorObject): string {
  if (key === '') return `${param} keys must not be empty`;
  const shown = key.length > 20 ? `${key.slice(0, 20)}…` : key;
  if (e.keyword === 'maxLength') return `${param} key "${shown}" is ${key.length} characters long; keys are at most ${(e.params as { limit: number }).limit}`;
  return `${param} key "${shown}" is not valid`;
}

function messageOf(param: string, e: ErrorObject): string {
  if (typeof e.propertyName === 'string') return keyMessage(param, e.propertyName, e);
  const allowed = allowedValues(e);
  if (allowed !== undefined) {
    const given = typeof e.data === 'string' ? `, got "${e.data}"` : '';
    return `${param} must be one of ${allowed.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}${given}`;
  }
  const alternatives = typeAlternatives(e);
  if (alternatives !== undefined) return `${param} must be ${alternatives}`;
  // An empty string where an id, a name or a code belongs: say so, rather than quote a pattern.
  if (isBlank(e.data) && ['pattern', 'minLength', 'format'].includes(e.keyword)) return `${param} is empty`;
  switch (e.keyword) {
    case 'required':
      return `${param} is required`;
    case 'additionalProperties':
      return `${param} is not a known parameter`;
    case 'type':
      return `${param} must be of type ${(e.params as { type: string }).type}`;
    case 'maximum':
    case 'minimum':
      return `${param} must be ${e.keyword === 'maximum' ? 'at most' : 'at least'} ${(e.params as { limit: number }).limit}`;
    case 'maxLength':
      return `${param} must be at most ${(e.params as { limit: number }).limit} characters long`;
    case 'maxProperties':
      return `${param} must have at most ${(e.params as { limit: number }).limit} keys`;
    default:
      return `${param} ${e.message ?? 'is not valid'}`;
  }
}

/** Edit distance (Levenshtein) between two short names. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** "did you mean …?" for the closest known name (case aside, at most half its length away), else the known names. */
export function suggestParameter(name: string, known: readonly string[]): string {
  if (known.length === 0) return 'this object takes no parameters';
  const ranked = known.map((k) => ({ k, d: distance(name.toLowerCase(), k.toLowerCase()) })).sort((x, y) => x.d - y.d);
  const best = ranked[0] as { k: string; d: number };
  if (best.d <= Math.max(2, Math.floor(name.length / 2))) return `did you mean ${best.k}?`;
  return `known parameters: ${known.join(', ')}`;
}

/**
 * Alternatives (anyOf/oneOf) report every branch, then themselves: a branch of the value's own
 * type that refused it (a string over its length) says most; a value of no branch's type is
 * better told by the union (a string, a number or a boolean) than by its first branch.
 */
function mostSpecific(errors: ErrorObject[]): ErrorObject | undefined {
  const union = errors.find((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  if (!union) return errors[0];
  return errors.find((e) => e.instancePath === union.instancePath && e !== union && e.keyword !== 'type' && e.keyword !== 'const') ?? union;
}

/** The `type` constant each branch of a union of objects requires, or undefined when it is not such a union. */
function tagsOf(e: ErrorObject): (string | undefined)[] | undefined {
  if ((e.keyword !== 'anyOf' && e.keyword !== 'oneOf') || !Array.isArray(e.schema)) return undefined;
  const tags = (e.schema as { properties?: { type?: { const?: unknown } } }[]).map((b) => {
    const tag = b?.properties?.type?.const;
    return typeof tag === 'string' ? tag : undefined;
  });
  return tags.every((t) => t !== undefined) ? tags : undefined;
}

/**
 * A union of objects tagged by `type` (a charge's `paymentMethod`): a value that names a member is
 * told that member's errors only, never the others' (their unknown fields, their missing ones); a
 * value that names none is told the tags it may take.
 */
function narrowTaggedUnions(part: string, errors: ErrorObject[]): ErrorObject[] | ApiError {
  let kept = errors;
  for (const union of errors.filter((e) => tagsOf(e) !== undefined)) {
    const tags = tagsOf(union) as string[];
    const tag = (union.data as { type?: unknown } | null | undefined)?.type;
    const index = typeof tag === 'string' ? tags.indexOf(tag) : -1;
    const inUnion = (e: ErrorObject) => e.schemaPath.startsWith(`${union.schemaPath}/`);
    if (index < 0) {
      const param = [paramOf(part, union), 'type'].filter((p) => p !== part).join('.') || 'type';
      return new ApiError('validation_error', `${param} must be one of: ${tags.join(', ')}`, { param });
    }
    const own = `${union.schemaPath}/${index}/`;
    kept = kept.filter((e) => e !== union && (!inUnion(e) || e.schemaPath.startsWith(own)));
  }
  return kept;
}

/** Turns Ajv's errors into one ApiError: unknown fields first, then field codes, then the list. */
export function toApiError(part: string, errors: ErrorObject[]): ApiError {
  const narrowed = narrowTaggedUnions(part, errors);
  if (narrowed instanceof ApiError) return narrowed;
  errors = narrowed;
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  if (unknown) {
    const param = paramOf(part, unknown);
    const name = String((unknown.params as { additionalProperty: string }).additionalProperty);
    const known = Object.keys((unknown.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
    return new ApiError('parameter_unknown', `Unknown parameter: ${param}; ${suggestParameter(name, known)}`, { param });
  }
  const coded = mostSpecific(errors.filter((e) => typeof (e.parentSchema as Record<string, unknown> | undefined)?.['x-code'] === 'string'));
  if (coded) {
    const param = paramOf(part, coded);
    const code = (coded.parentSchema as Record<string, unknown>)['x-code'] as ErrorCode;
    return new ApiError(code, messageOf(param, coded), { param });
  }
  // A union of constants fails once per constant, then as a whole: keep the whole, which lists them.
  const unions = errors.filter((e) => allowedValues(e) !== undefined && e.keyword !== 'enum');
  const list = errors
    .filter((e) => (e.keyword !== 'anyOf' && e.keyword !== 'oneOf') || allowedValues(e) !== undefined)
    .filter((e) => !(e.keyword === 'const' && unions.some((u) => u.instancePath === e.instancePath && e.schemaPath.startsWith(`${u.schemaPath}/`))))
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

/**
 * Validators by part and schema text, each compiled at its first use. Fastify hands the compiler a
 * copy of each route's schema, so Ajv's own cache (by object) never hits; many routes share a
 * schema (ids, pages), and an app built again in the same process (the tests build one per file)
 * compiles nothing twice. Compiling at the first request rather than at start: a server starts
 * about a second sooner (Ajv's code generation for some 300 schemas), and a process that serves a
 * handful of routes (a CLI command, a test file) compiles only those.
 */
interface Entry {
  ajv: Ajv;
  schema: object;
  validate?: ValidateFunction;
}
const schemas = new Map<string, Entry>();

function entryOf(ajv: Ajv, part: string, schema: object): Entry {
  const key = `${part}\u0000${JSON.stringify(schema)}`;
  let entry = schemas.get(key);
  if (entry === undefined) {
    entry = { ajv, schema };
    schemas.set(key, entry);
  }
  return entry;
}

const compiledOf = (entry: Entry): ValidateFunction => (entry.validate ??= entry.ajv.compile(entry.schema));

/** Compiles every validator not yet used, throwing on the first schema Ajv refuses (a test's check that all compile). */
export function compileAllValidators(): number {
  for (const entry of schemas.values()) compiledOf(entry);
  return schemas.size;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const part = httpPart ?? 'body';
  const ajv = part === 'body' ? strictAjv : coercingAjv;
  // Shared by every route with this schema: its `errors` are read right after the call, before any await.
  const entry = entryOf(ajv, part, schema as object);
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
    // An id that is empty — in the path (`GET /gateway/%20`), or a top-level `…Id` member — is
    // said to be empty, rather than looked up and not found.
    if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
      const blank = Object.entries(data).find(([k, v]) => isBlank(v) && (part === 'params' || /(^id|Id)$/.test(k)));
      if (blank) {
        const [param] = blank;
        const message = part === 'params' ? `${param} is empty: the path has nothing where the ${param} belongs` : `${param} is empty`;
        return { error: new ApiError('validation_error', message, { param, errors: [{ param, message }] }) };
      }
    }
    const validate = compiledOf(entry);
    if (validate(data)) return { value: data };
    return { error: toApiError(part, validate.errors ?? []) };
  };
};
