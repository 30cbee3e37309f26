import type { Mode } from '../types.ts';

/**
 * Every query key of the dashboard, built here only. A key starts with what invalidation aims at:
 * `[mode, resource]` covers a resource's lists and items in one mode, `[mode, resource, 'list']`
 * its lists only, `[mode, resource, 'item', id]` one item. Resources without a mode (team,
 * account, audit log, country) start with `'merchant'` or `'user'`.
 */
function resource<R extends string>(name: R) {
  return {
    all: (mode: Mode) => [mode, name] as const,
    lists: (mode: Mode) => [mode, name, 'list'] as const,
    list: (mode: Mode, query: string) => [mode, name, 'list', query] as const,
    item: (mode: Mode, id: string) => [mode, name, 'item', id] as const,
  };
}

export const keys = {
  payments: resource('payments'),
  customers: resource('customers'),
  payouts: resource('payouts'),
  payoutSchedule: (mode: Mode) => [mode, 'payout-schedule'] as const,
  balance: {
    all: (mode: Mode) => [mode, 'balance'] as const,
    summary: (mode: Mode) => [mode, 'balance', 'summary'] as const,
    transactions: (mode: Mode, query: string) => [mode, 'balance', 'transactions', query] as const,
  },
  events: resource('events'),
  webhooks: {
    ...resource('webhooks'),
    deliveries: (mode: Mode, id: string) => [mode, 'webhooks', 'item', id, 'deliveries'] as const,
    stats: (mode: Mode, id: string) => [mode, 'webhooks', 'item', id, 'stats'] as const,
  },
  keys: (mode: Mode) => [mode, 'keys'] as const,
  links: resource('links'),
  methods: (mode: Mode) => [mode, 'methods'] as const,
  providers: (mode: Mode) => [mode, 'providers'] as const,
  overview: {
    all: (mode: Mode) => [mode, 'overview'] as const,
    period: (mode: Mode, period: string) => [mode, 'overview', period] as const,
  },
  searches: (mode: Mode) => [mode, 'search'] as const,
  search: (mode: Mode, q: string) => [mode, 'search', q] as const,
  testMessages: () => ['test', 'messages'] as const,
  country: () => ['merchant', 'country'] as const,
  team: () => ['merchant', 'team'] as const,
  profile: () => ['merchant', 'profile'] as const,
  invitation: (token: string) => ['invitation', token] as const,
  audits: () => ['merchant', 'audit'] as const,
  audit: (action: string) => ['merchant', 'audit', action] as const,
  account: {
    security: () => ['user', 'security'] as const,
    sessions: () => ['user', 'sessions'] as const,
  },
};
