import { createMerchantsService } from './modules/merchants/merchants.service.ts';
import type { Deps } from './platform/deps.ts';

/** Every module's service, built once from the injected world. */
export function createServices(deps: Deps) {
  return {
    merchants: createMerchantsService(deps),
  };
}

export type Services = ReturnType<typeof createServices>;
