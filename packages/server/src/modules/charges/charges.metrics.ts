import { Gauge, type Registry } from 'prom-client';
import type { KeyMode } from '../../platform/tenancy.ts';

/**
 * `caisse_late_payments_to_return{mode}`: late payments whose connector could not send them back,
 * waiting for an operator to return them by hand (read from the database when scraped). Alert on
 * anything above 0.
 */
export function registerManualReturnMetrics(registry: Registry, source: { openManualReturns(): Promise<{ mode: KeyMode; n: number }[]> }): void {
  new Gauge({
    name: 'caisse_late_payments_to_return',
    help: 'Late payments held for the payer that an operator must return by hand (their connector cannot send money back)',
    labelNames: ['mode'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const mode of ['test', 'live'] as const) this.set({ mode }, 0);
      for (const { mode, n } of await source.openManualReturns()) this.set({ mode }, n);
    },
  });
}
