import type { Deps } from '../../platform/deps.ts';
import type { MobileRefunds } from '../charges/index.ts';
import type { ModeConnectors } from '../connectors/index.ts';
import type { LedgerReport, LedgerService } from '../ledger/index.ts';
import type { MerchantsService } from '../merchants/index.ts';
import type { MethodsService } from '../methods/index.ts';
import type { OnboardingService } from '../onboarding/index.ts';
import type { PayoutsService } from '../payouts/index.ts';
import type { ProviderAccountsService } from '../provideraccounts/index.ts';
import type { ReconciliationService } from '../reconciliation/index.ts';
import type { RoutesService } from '../routes/index.ts';
import type { CustomerLimits, UsersService } from '../users/index.ts';
import { createOperatorAccounts } from './operators.accounts.ts';
import { createOperatorAudit } from './operators.audit.ts';
import { createOperatorCustomers } from './operators.customers.ts';
import { createOperatorMerchants } from './operators.merchants.ts';
import { createOperatorMoney } from './operators.money.ts';
import { createOperatorPayoutReview } from './operators.payouts.ts';
import { createOperatorProfiles } from './operators.profiles.ts';
import { createOperatorProviders } from './operators.providers.ts';
import { createOperatorRouting } from './operators.routing.ts';
import { createOperatorSessions } from './operators.sessions.ts';

/**
 * The operator console: operators and their sign-in (password and TOTP, always), their
 * sessions, the merchants seen from above (search, page, freeze), the platform's money from the
 * ledger, and the audit log of every operator action. Rules in docs/decisions/0033-operator-console.md.
 * Each use case is its own file, built here once with what it uses and the one audit writer.
 */
export function createOperatorsService(
  deps: Deps,
  services: {
    merchants: MerchantsService;
    ledger: Pick<LedgerService, 'totals' | 'merchantBalances' | 'wallet' | 'feeRevenue'>;
    users: Pick<UsersService, 'findForOperator' | 'findAnyForOperator' | 'setLocked' | 'sendPasswordResetForOperator'>;
    verifyBooks: () => Promise<LedgerReport>;
    onboarding: OnboardingService;
    payouts: Pick<PayoutsService, 'thresholds' | 'setThreshold' | 'inReview' | 'review'>;
    customerLimits: Pick<CustomerLimits, 'list' | 'set'>;
    connectors: Pick<ModeConnectors, 'forMode'>;
    methods: Pick<MethodsService, 'allowance' | 'setAllowance' | 'settings'>;
    reconciliation: Pick<ReconciliationService, 'latest'>;
    providerAccounts: Pick<ProviderAccountsService, 'list' | 'add' | 'disable' | 'check'>;
    routes: Pick<RoutesService, 'list' | 'set'>;
    /** Late payments whose connector cannot send them back, to return by hand. */
    lateReturns: Pick<MobileRefunds, 'manualReturns' | 'markReturned'>;
  },
) {
  const { record, listAudit } = createOperatorAudit(deps);
  return {
    ...createOperatorSessions(deps, record),
    ...createOperatorAccounts(deps, record),
    ...createOperatorMerchants(deps, services, record),
    ...createOperatorProfiles(services, record),
    ...createOperatorMoney(deps, services, record),
    ...createOperatorPayoutReview(services, record),
    ...createOperatorRouting(services, record),
    ...createOperatorProviders(services, record),
    ...createOperatorCustomers(deps, services, record),
    listAudit,
  };
}

export type OperatorsService = ReturnType<typeof createOperatorsService>;
