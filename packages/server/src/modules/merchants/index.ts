// The merchants module: merchants and their settings, API keys (and their cache), the team, dashboard accounts.
export {
  createMerchantsService,
  type FreezeState,
  type MerchantProfile,
  type MerchantsService,
  type MerchantSummary,
  type MerchantTerms,
  type TermsPatch,
} from './merchants.service.ts';
export { checkShortName, deriveShortName, SHORT_NAME_MAX, SHORT_NAME_MIN } from './merchants.shortname.ts';
export {
  allowedOriginsFor,
  type CreatedKey,
  KEY_CACHE_TTL_MS,
  keyView,
  type KeyView,
  MAX_ALLOWED_ORIGINS,
  MAX_ROLL_GRACE_SECONDS,
  permissionsOfKey,
  restrictedPermissions,
} from './merchants.keys.ts';
export { INVITATION_TTL_MS, type InvitationView, invitationView, type MemberView } from './merchants.team.ts';
export type { ApiKeyRow, KeyKind, TeamRole } from './merchants.repository.ts';
export { merchantsDashboardRoutes } from './merchants.dashboard.ts';
