import { describe, expect, it } from 'vitest';
import { CaisseError, errorInit, retryAfterSeconds } from '../src/index.ts';

describe('CaisseError', () => {
  it('reads code, message, request id, param, errors and Retry-After off a problem answer', () => {
    const headers = new Headers({ 'request-id': 'req_1', 'retry-after': '7' });
    const body = {
      code: 'validation_error',
      status: 422,
      detail: 'amount is invalid',
      param: 'amount',
      errors: [{ param: 'amount', message: 'not a number' }],
    };
    const err = new CaisseError({ ...errorInit(422, headers, body), idempotencyKey: 'key_1' });
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({
      name: 'CaisseError',
      code: 'validation_error',
      message: 'amount is invalid',
      status: 422,
      requestId: 'req_1',
      param: 'amount',
      errors: [{ param: 'amount', message: 'not a number' }],
      retryAfter: 7,
      idempotencyKey: 'key_1',
    });
    expect(err.raw).toBe(body);
    expect(err.headers).toBe(headers);
  });

  it('names answers without a problem body by their status, and takes the request id from the body when no header has it', () => {
    expect(errorInit(503, new Headers(), undefined)).toMatchObject({
      code: 'api_error',
      status: 503,
      message: 'The Caisse API answered 503 without an error body',
    });
    expect(errorInit(404, new Headers(), 'not json')).toMatchObject({ code: 'http_404', raw: undefined });
    expect(errorInit(401, new Headers(), { title: 'Unauthorized', code: '' })).toMatchObject({ code: 'http_401', message: 'Unauthorized' });
    expect(new CaisseError({ ...errorInit(400, new Headers(), { code: 'otp_incorrect', requestId: 'req_body', attemptsRemaining: 4 }) })).toMatchObject({
      requestId: 'req_body',
      raw: { attemptsRemaining: 4 },
    });
  });

  it('is also made by hand, for errors no answer carried', () => {
    const cause = new TypeError('fetch failed');
    const err = new CaisseError({ code: 'connection_error', message: 'Could not reach Caisse', cause });
    expect(err).toMatchObject({ code: 'connection_error', status: undefined, retryAfter: undefined, raw: undefined, cause });
  });
});

describe('retryAfterSeconds', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(retryAfterSeconds(new Headers({ 'retry-after': '120' }), now)).toBe(120);
    expect(retryAfterSeconds(new Headers({ 'retry-after': 'Sat, 21 Nov 2026 10:00:30 GMT' }), now)).toBe(30);
    expect(retryAfterSeconds(new Headers({ 'retry-after': 'Sat, 21 Nov 2026 09:00:00 GMT' }), now)).toBe(0);
    expect(retryAfterSeconds(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterSeconds(new Headers(), now)).toBeUndefined();
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
  });
});
