import { capabilitiesOf, type ModeConnectors, PROVIDER_OUTCOMES, providerDescriptions } from '../connectors/index.ts';
import type { CheckResult, ProviderAccountInput, ProviderAccountsService } from '../provideraccounts/index.ts';
import type { RecordAudit } from './operators.audit.ts';
import type { OperatorSession } from './operators.sessions.ts';

/** The providers as this server has them, and the provider accounts operators add, disable and check (decisions 0041, 0075, 0078). */
export function createOperatorProviders(
  collaborators: {
    connectors: Pick<ModeConnectors, 'forMode'>;
    providerAccounts: Pick<ProviderAccountsService, 'list' | 'add' | 'disable' | 'check'>;
  },
  record: RecordAudit,
) {
  const { connectors, providerAccounts } = collaborators;
  return {
    /**
     * Every provider of the registry in each mode: what it is, whether this server has it set up
     * (never a setting's value), the provider account it is called with and that account's health
     * as this process has seen it (decisions 0041, 0078).
     */
    providers() {
      const data = (['test', 'live'] as const).flatMap((mode) => {
        const registry = connectors.forMode(mode);
        const views = registry.health?.views() ?? [];
        return providerDescriptions().map((d) => {
          // The health of the account this mode calls the provider with, for its own method.
          const account = registry.account(d.name);
          const seen = views.find((v) => v.account === account && v.method === d.name);
          const outcomes = seen?.outcomes ?? Object.fromEntries(PROVIDER_OUTCOMES.map((o) => [o, 0]));
          return {
            object: 'operator_provider' as const,
            provider: d.name,
            mode,
            name: d.displayName,
            countries: [...d.countries],
            currencies: [...d.currencies],
            // Less what this mode's account lacks (MTN without a disbursement key collects only).
            capabilities: Object.entries(capabilitiesOf(d, registry.get(d.name)))
              .filter(([, on]) => on)
              .map(([c]) => c),
            configured: registry.get(d.name) !== undefined,
            providerAccount: account ?? null,
            health: { available: account === undefined || (registry.health?.available(account, d.name) ?? true), outcomes },
          };
        });
      });
      return { object: 'list' as const, data };
    },

    /** Every provider account, the platform's included; credentials masked (at most their last four characters). */
    async providerAccounts() {
      return { object: 'list' as const, data: await providerAccounts.list() };
    },

    /** Adds an account; the audit entry (the account as listed: credentials masked) commits with it. */
    async addProviderAccount(s: OperatorSession, body: ProviderAccountInput) {
      return providerAccounts.add(body, (tx, _before, after) =>
        record(tx, s, { action: 'provider_account.added', targetType: 'provider_account', targetId: after.id, after }),
      );
    },

    async disableProviderAccount(s: OperatorSession, id: string) {
      return providerAccounts.disable(id, (tx, before, after) =>
        record(tx, s, {
          action: 'provider_account.disabled',
          targetType: 'provider_account',
          targetId: id,
          before: before && { status: before.status },
          after: { status: after.status },
        }),
      );
    },

    /** Checks one account; an operator's account keeps the answer (`lastCheck`) and the audit log says who asked. */
    async checkProviderAccount(s: OperatorSession, id: string) {
      const [result] = await providerAccounts.check({ id }, (tx, r) =>
        record(tx, s, { action: 'provider_account.checked', targetType: 'provider_account', targetId: id, after: { ok: r.ok, detail: r.detail } }),
      );
      return result as CheckResult;
    },
  };
}
