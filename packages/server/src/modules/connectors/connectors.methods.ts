import { type ProviderDescription, servedMethods } from './connectors.description.ts';
import { METHOD_NETWORKS, type Operator } from './connectors.numbering.ts';

export { OPERATOR_NAMES } from './connectors.numbering.ts';

/**
 * The payment methods payers choose among, apart from the connectors that reach them
 * (docs/spec/mobile-money-payments.md, "Payment methods"; decision 0084): each operator's own
 * connector is a method (its description presents it), and so is each method an aggregator's
 * description `serves` that has a presentation below. An aggregator is never one.
 */

/** How payers know a method that has no connector of its own name. */
export interface MethodPresentation {
  displayName: string;
  /** What the payer dials when the prompt does not show, or null (it differs by country). */
  ussd: string | null;
}

/**
 * The methods reached only through an aggregator: their brand, the same in every language. A
 * method an aggregator serves without a line here (or a connector of its name) is not offered.
 */
const PRESENTATIONS: Readonly<Record<string, MethodPresentation>> = {
  moov_money: { displayName: 'Moov Money', ussd: null },
  free_money: { displayName: 'Free Money', ussd: null },
  t_money: { displayName: 'T-Money', ussd: null },
  celtiis_cash: { displayName: 'Celtiis Cash', ussd: null },
};

/** One payment method of the catalogue. */
export interface PaymentMethodInfo {
  /** What `paymentMethod.provider` names (`moov_money`). */
  name: string;
  displayName: string;
  /** The network whose numbers it serves (connectors.numbering.ts); null: any number of its countries (Wave). */
  network: Operator | null;
  ussd: string | null;
}

/**
 * The catalogue from the registry's descriptions, in this order: the operators' own connectors
 * (the registry's order), then the methods aggregators serve (as their descriptions list them),
 * then the other presented methods, which no connector reaches yet.
 */
export function methodCatalogue(descriptions: readonly ProviderDescription[]): PaymentMethodInfo[] {
  const own = descriptions.filter((d) => d.serves === undefined);
  const catalogue: PaymentMethodInfo[] = own.map((d) => ({ name: d.name, displayName: d.displayName, network: d.network, ussd: d.ussd }));
  const named = new Set(catalogue.map((m) => m.name));
  const served = descriptions.flatMap((d) => (d.serves === undefined ? [] : servedMethods(d).map((s) => s.method)));
  for (const name of [...served, ...Object.keys(PRESENTATIONS)]) {
    const presentation = PRESENTATIONS[name];
    if (named.has(name) || presentation === undefined) continue;
    named.add(name);
    catalogue.push({ name, ...presentation, network: METHOD_NETWORKS[name] ?? null });
  }
  return catalogue;
}
