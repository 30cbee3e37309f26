import { Counter, Gauge, type Registry } from 'prom-client';
import { PROVIDER_OUTCOMES } from './connectors.health.ts';
import { type ConnectorSource, healthViews } from './connectors.registry.ts';

/**
 * The providers' health on /metrics, read from the health windows when scraped:
 * `caisse_provider_calls_total{mode, provider, outcome}` (success, timeout, server_error,
 * unknown) and `caisse_provider_available{mode, provider}` (1 or 0).
 */
export function registerProviderMetrics(registry: Registry, source: ConnectorSource): void {
  new Counter({
    name: 'caisse_provider_calls_total',
    help: 'Calls to mobile-money providers by mode, provider and outcome (success: the provider answered; timeout, server_error, unknown: it did not usefully)',
    labelNames: ['mode', 'provider', 'outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const v of healthViews(source)) {
        for (const outcome of PROVIDER_OUTCOMES) this.inc({ mode: v.mode, provider: v.provider, outcome }, v.outcomes[outcome]);
      }
    },
  });
  new Gauge({
    name: 'caisse_provider_available',
    help: 'Whether new charges go to the provider (0 while its recent calls mostly failed)',
    labelNames: ['mode', 'provider'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const v of healthViews(source)) this.set({ mode: v.mode, provider: v.provider }, v.available ? 1 : 0);
    },
  });
}
