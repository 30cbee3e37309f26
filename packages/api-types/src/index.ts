/**
 * @caisse/api-types: what the Caisse clients share. The API's request and answer types
 * (`paths`, generated from the server's OpenAPI document into src/generated/api.ts), the API
 * version they describe, helpers to read an operation's body, answer and query off `paths`, and
 * CaisseError, the one error type of @caisse/node and @caisse/browser. The dashboard's and the
 * operator console's own APIs (session cookie, CSRF token) are generated into the same file and
 * read apart, as `DashboardPaths`: the SDKs never call them.
 */
import type { paths as generatedPaths } from './generated/api.ts';

export { API_VERSION } from './generated/api.ts';

/** The dashboard's and the operator console's own APIs, by path prefix. */
type StaffPath = `/dashboard/${string}` | `/operator/${string}`;
/** The API the SDKs call (keys, OTP, payment intents, events, …). */
export type paths = { [P in keyof generatedPaths as P extends StaffPath ? never : P]: generatedPaths[P] };
/** The dashboard's and the operator console's APIs: what their pages call with a session cookie. */
export type DashboardPaths = { [P in keyof generatedPaths as P extends StaffPath ? P : never]: generatedPaths[P] };
export { CaisseError, errorInit, retryAfterSeconds, type CaisseErrorInit, type ProblemBody } from './errors.ts';

/** The JSON body of an operation, e.g. `JsonBody<paths['/gateway']['post']>`. */
export type JsonBody<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The JSON answer of an operation with status `S`, e.g. `JsonAnswer<paths['/gateway']['post'], 201>`. */
export type JsonAnswer<Op, S extends number> = Op extends { responses: { [K in S]: { content: { 'application/json': infer R } } } } ? R : never;
/** The query parameters of an operation. */
export type Query<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
