// The merchants module: merchants, API keys (and their cache), dashboard accounts.
export * from './merchants.service.ts';
export type { ApiKeyRow, KeyKind, TeamRole } from './merchants.repository.ts';
