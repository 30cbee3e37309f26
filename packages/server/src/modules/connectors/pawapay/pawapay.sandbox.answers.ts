import { SandboxAnswer } from '../sandbox/sandbox.http.ts';

/** pawaPay's refusals outside initiation's REJECTED: an HTTP status and a failureReason. */
export function refusal(status: number, failureCode: string, failureMessage: string): SandboxAnswer {
  return new SandboxAnswer(status, { failureReason: { failureCode, failureMessage } });
}

/** The body as pawaPay reads it: 400 INVALID_INPUT when it is not JSON, MISSING/UNSUPPORTED/INVALID_PARAMETER by its shape. */
export function parse<T>(
  text: string,
  checker: { Check(v: unknown): v is T; Errors(v: unknown): { instancePath: string; message: string }[] },
  schema: { properties: Record<string, unknown> },
  required: string[],
): T {
  const allowed = Object.keys(schema.properties);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refusal(400, 'INVALID_INPUT', 'The body is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw refusal(400, 'INVALID_INPUT', 'The body is not a JSON object');
  const missing = required.find((k) => !(k in value));
  if (missing !== undefined) throw refusal(400, 'MISSING_PARAMETER', `${missing} is required`);
  const unknown = Object.keys(value).find((k) => !allowed.includes(k));
  if (unknown !== undefined) throw refusal(400, 'UNSUPPORTED_PARAMETER', `${unknown} is not a parameter of this endpoint`);
  if (checker.Check(value)) return value;
  const first = checker.Errors(value)[0];
  throw refusal(400, 'INVALID_PARAMETER', first ? `${first.instancePath || '/'} ${first.message}` : 'invalid');
}

/** An initiation pawaPay turns down: answered 200, REJECTED, with why. */
export const rejected = (idField: string, id: string, failureCode: string, failureMessage: string) =>
  new SandboxAnswer(200, { [idField]: id, status: 'REJECTED', failureReason: { failureCode, failureMessage } });
