import { describe, expect, expectTypeOf, it } from 'vitest';
import { API_VERSION, type DashboardPaths, type JsonAnswer, type JsonBody, type paths, type Query } from '../src/index.ts';

describe('the generated types', () => {
  it('exports the API version they describe', () => {
    expect(API_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("reads an operation's body, answer and query off paths", () => {
    expectTypeOf<JsonBody<paths['/gateway']['post']>>().toHaveProperty('amount').toEqualTypeOf<string>();
    expectTypeOf<JsonAnswer<paths['/gateway']['post'], 201>>().toHaveProperty('sessionToken');
    expectTypeOf<JsonAnswer<paths['/otp/verify']['post'], 200>>().toHaveProperty('authorizationToken').toEqualTypeOf<string>();
    expectTypeOf<NonNullable<Query<paths['/events']['get']>['type']>>().toEqualTypeOf<
      | 'payment.processing'
      | 'payment.completed'
      | 'payment.failed'
      | 'payment.expired'
      | 'payment.canceled'
      | 'payment.refunded'
      | 'refund.failed'
      | 'payout.paid'
      | 'payout.failed'
    >();
  });

  it("splits the dashboard's and the operator console's APIs from what the SDKs call", () => {
    expectTypeOf<JsonAnswer<DashboardPaths['/dashboard/api/session']['get'], 200>>().toHaveProperty('csrfToken');
    expectTypeOf<Extract<keyof DashboardPaths, '/operator/api/session'>>().toEqualTypeOf<'/operator/api/session'>();
    expectTypeOf<Extract<keyof paths, `/dashboard/${string}` | `/operator/${string}`>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof DashboardPaths, '/gateway'>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof paths, '/gateway'>>().toEqualTypeOf<'/gateway'>();
  });
});
