import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { AnswerError, ApiError, type ErrorCode, toProblem } from '../errors.ts';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db-unavailable.ts';
import { KEY_TAKEN_OVER } from './idempotency.repository.ts';

/** An error's answer as the error handler sends it: status, headers and the RFC 9457 body text. */
export function problemAnswer(err: ApiError, requestId: string): { status: number; headers: Record<string, string>; body: string } {
  return {
    status: err.status,
    headers: { ...err.options.headers, 'content-type': 'application/problem+json; charset=utf-8' },
    body: JSON.stringify(toProblem(err, requestId)),
  };
}

export function sendProblem(reply: FastifyReply, request: FastifyRequest, err: ApiError): FastifyReply {
  const answer = problemAnswer(err, request.id);
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  // Already JSON text with a JSON content type: Fastify sends it as it is (no route serializer).
  return reply.code(answer.status).send(answer.body);
}

/**
 * The answer to a request whose transaction found its key taken over (it outlived LOCK_TIMEOUT):
 * the error surfaces where the transaction's next statement runs, so the error handler maps it too.
 */
export function asTakenOver(err: unknown): ApiError | undefined {
  const e = err as { code?: unknown; message?: unknown };
  if (e?.code !== 'P0001' || e.message !== KEY_TAKEN_OVER) return undefined;
  return new ApiError(
    'idempotency_request_in_progress',
    'Another request with this Idempotency-Key took it over while this one ran; nothing was done: retry to get its answer',
    {
      param: 'Idempotency-Key',
      headers: { 'retry-after': '1' },
    },
  );
}

/**
 * No database reachable (its primary died or is being replaced): the transaction rolled back or
 * its outcome is unknown, so nothing is claimed; a retry with the same Idempotency-Key gets the
 * answer once a primary is back (docs/operations.md).
 */
export function databaseUnavailable(): ApiError {
  return new ApiError('unavailable', 'The database is not reachable at the moment; retry shortly', {
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'json_invalid',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'json_invalid',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_error',
  FST_ERR_NOT_FOUND: 'not_found',
};

/** Any error → ApiError. Unknown errors become `internal_error`, with nothing of them leaked. */
export function asApiError(err: FastifyError | Error): ApiError | null {
  if (err instanceof ApiError) return err;
  const fe = err as FastifyError;
  const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (mapped === 'json_invalid') return new ApiError('json_invalid', 'The body could not be parsed as JSON');
  if (mapped === 'payload_too_large') return new ApiError('payload_too_large', 'The body is larger than 64 KiB');
  if (mapped === 'unsupported_media_type') {
    return new ApiError('unsupported_media_type', 'Send the body as application/json');
  }
  if (mapped) return new ApiError(mapped);
  const takenOver = asTakenOver(err);
  if (takenOver) return takenOver;
  if (isDatabaseUnavailable(err)) return databaseUnavailable();
  // PostgreSQL data exceptions (class 22: bad encoding, text that is not a number, out of range)
  // mean the input slipped past validation: still the caller's input, never a 500.
  if (typeof fe.code === 'string' && /^22[0-9A-Z]{3}$/.test(fe.code) && (err as { severity?: string }).severity !== undefined) {
    return new ApiError('validation_error', 'A value in the request cannot be stored as given');
  }
  if (err instanceof SyntaxError && fe.statusCode === 400) return new ApiError('json_invalid', 'The body could not be parsed as JSON');
  if (fe.statusCode === 429) return new ApiError('rate_limited', 'Too many requests');
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    if (fe.statusCode === 404) return new ApiError('not_found');
    if (fe.statusCode === 405) return new ApiError('method_not_allowed');
    if (fe.statusCode === 413) return new ApiError('payload_too_large');
    if (fe.statusCode === 415) return new ApiError('unsupported_media_type');
    return new ApiError('validation_error', 'The request could not be read');
  }
  return null;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** One error handler and one not-found handler for the whole app (RFC 9457 bodies). */
export function registerErrorHandling(app: FastifyInstance): void {
  // A shadow router, to tell "no such path" (404) from "no such method on this path" (405).
  const shadow = FindMyWay();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) {
      if (m === 'HEAD' || m === 'OPTIONS') continue;
      try {
        shadow.on(m as 'GET', route.url, () => {});
      } catch {
        /* duplicate shapes are harmless here */
      }
    }
  });

  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AnswerError) return (err.answer as (reply: FastifyReply) => FastifyReply)(reply);
    const apiError = asApiError(err);
    if (apiError?.code === 'unavailable' && !(err instanceof ApiError)) request.log.warn({ err }, 'the database is not reachable');
    if (apiError) return sendProblem(reply, request, apiError);
    request.log.error({ err }, 'unhandled error');
    return sendProblem(reply, request, new ApiError('internal_error', 'Something went wrong on our side; the request id helps us find it'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((m) => m !== request.method && shadow.find(m, path));
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendProblem(reply, request, new ApiError('method_not_allowed', `${request.method} is not allowed on ${path}`));
    }
    return sendProblem(reply, request, new ApiError('not_found', `No route ${request.method} ${path}`));
  });
}
