import type { Country } from '../../platform/countries.ts';
import type { Currency } from '../../platform/money.ts';
import type { Operator } from './connectors.numbering.ts';

/**
 * What a provider is, for everything that is not the connector itself (docs/spec/providers.md): which
 * payers it serves, how they approve, its bounds and rules. Each provider exports one next to its
 * connector; the registry lists them. Checkout, `GET /payment-methods`, the CLI and the charge
 * path read these instead of naming a provider.
 */
export interface ProviderDescription {
  /** The registry name (`mtn_momo`). */
  name: string;
  /** The brand payers know (`MTN MoMo`); the same in French and English. */
  displayName: string;
  countries: readonly Country[];
  currencies: readonly Currency[];
  /**
   * Optional: those of `currencies` an account takes only when its settings name them, the
   * provider enabling them per account (CinetPay's USD by card, decision 0098). An account
   * configured without them, the sandbox's implicit one included, does not take them.
   */
  optInCurrencies?: readonly Currency[];
  /** How the payer approves: a prompt on the phone (PIN), or a page of the provider's. */
  approval: ApprovalKind;
  /** Bounds of one payment, per currency, in minor units. A currency missing here is not served. */
  limits: Partial<Record<Currency, AmountBounds>>;
  /** What the payer dials when the prompt does not show (`*126#`), or null. */
  ussd: string | null;
  /**
   * The mobile network whose numbers this provider serves, for routing by prefix
   * (connectors.numbering.ts); null when any number of its countries may hold an account (Wave).
   */
  network: Operator | null;
  capabilities: Readonly<Record<Capability, boolean>>;
  /**
   * Whether `status` can read a request by OUR reference alone (MTN by X-Reference-Id, Wave by
   * client_reference). False when the read needs what `collect` answered (Orange's pay_token): a
   * redirect request whose answer was lost in a crash can then never be read, nor its page shown,
   * and the lifecycle fails it once its submit can no longer be running (PAGE_LOST).
   */
  statusByReference: boolean;
  /** What the provider accepts in the messages shown to the payer or payee. */
  messages: MessageRules;
  /** Its environment variables (read by config.ts); `providers list` shows which are set. */
  settings: readonly ProviderSetting[];
  /**
   * Optional: what makes settings valid one by one but wrong together (Orange's environment and
   * currency), by the settings' keys: the key to name, and why. Checked when they are read.
   */
  checkSettings?(values: Readonly<Record<string, string | number>>): { key: string; message: string } | undefined;
  /** Numbers its sandbox answers in a known way (docs/spec/providers.md's table), for tests and docs. */
  testNumbers: readonly TestNumber[];
  /**
   * Optional: the payment methods (operators, `card`) this connector reaches, each in its
   * countries. Absent: a direct connector, which serves its own name in its `countries`. An
   * aggregator (pawaPay, CinetPay) lists the operators it reaches and is never a method itself.
   */
  serves?: readonly ServedMethod[];
  /**
   * Optional: the methods whose payments this connector cannot give back, each with why in words an
   * operator acts on (CinetPay: `card`, its payment API has no refund and a transfer reaches a
   * phone, not a card). A refund of such a payment is 409 `refund_unsupported` before anything is
   * stored; the merchant can record one made outside Caisse.
   */
  refundUnsupported?: Readonly<Record<string, string>>;
}

/**
 * The card method's name in `serves`, routes and attempts (docs/spec/card-payments.md): a way to
 * pay that some connectors reach, never a connector itself.
 */
export const CARD_METHOD = 'card';

/** One payment method a connector reaches, and where. Country codes as ISO 3166 alpha-2 strings. */
export interface ServedMethod {
  method: string;
  countries: readonly string[];
  /**
   * Optional: every currency it takes there, the country's included when it takes it (CinetPay's
   * cards in Côte d'Ivoire: XOF and USD). Absent: each country's own currency only, as mobile
   * money moves (docs/decisions/0082). Routes take the connector only in these (decision 0098).
   */
  currencies?: readonly Currency[];
}

/**
 * Whether the connector is itself a payment method payers choose (a direct connector), not only a
 * way to reach others (an aggregator, whose `serves` does not list its own name). Until methods
 * and connectors are told apart everywhere, lists of methods leave aggregators out by this.
 */
export function isPaymentMethod(description: Pick<ProviderDescription, 'name' | 'serves'>): boolean {
  return description.serves === undefined || description.serves.some((s) => s.method === description.name);
}

/** The methods a connector reaches: its `serves`, or its own name in its countries. */
export function servedMethods(description: Pick<ProviderDescription, 'name' | 'countries' | 'serves'>): readonly ServedMethod[] {
  return description.serves ?? [{ method: description.name, countries: description.countries }];
}

export type ApprovalKind = 'phone_prompt' | 'redirect';
export type Capability = 'collect' | 'disburse' | 'refund';

export interface AmountBounds {
  min: bigint;
  max: bigint;
  /** Amounts must be a multiple of this (CinetPay: 5 in XOF and XAF); absent: any amount. */
  step?: bigint;
}

export interface MessageRules {
  minLength: number;
  maxLength: number;
  /** Characters the provider refuses (MTN: `&'<>`). */
  forbidden: string;
}

export interface ProviderSetting {
  /** The environment variable. */
  env: string;
  /** The field of the connector's settings it fills (absent: documented only, read elsewhere). */
  key?: string;
  /**
   * How it is checked: an http(s) URL (https in production; `callback`: no query or fragment, the
   * connector appends to it), a credential sent in a header (printable ASCII), a name (letters,
   * digits, `_.-`), a UUID, a whole number (milliseconds, 100 to 120 000), or currency codes
   * separated by commas (kept upper-case: `XAF,USD`).
   */
  kind?: 'url' | 'callback' | 'credential' | 'name' | 'uuid' | 'integer' | 'currencies';
  /** Used when the variable is unset. */
  default?: string;
  /**
   * The default is a sandbox value (MTN's target environment `sandbox`, Orange's `dev`): it
   * never applies in production, where the variable is then required (docs/spec/providers.md,
   * "Going live"), and a live account must name the setting.
   */
  sandboxDefault?: boolean;
  /** Needed for the provider to be configured at all. */
  required: boolean;
  /** Never printed (`providers list` shows only that it is set). */
  secret: boolean;
  description: string;
}

export interface TestNumber {
  /** E.164. */
  phoneNumber: string;
  /** What the sandbox does with it (`SUCCESSFUL after about 1 s`). */
  outcome: string;
}

/** An amount within a provider's bounds, or why not (the bounds, to say them back). */
export type BoundsCheck =
  | { ok: true }
  | { ok: false; reason: 'currency_unsupported' | 'below_minimum' | 'above_maximum' | 'not_a_multiple'; bounds?: AmountBounds };

/** Whether `amount` (minor units) of `currency` may go through this provider in one payment (its bounds and its step). */
export function checkAmountBounds(description: Pick<ProviderDescription, 'limits'>, currency: Currency, amount: bigint): BoundsCheck {
  const bounds = description.limits[currency];
  if (bounds === undefined) return { ok: false, reason: 'currency_unsupported' };
  if (amount < bounds.min) return { ok: false, reason: 'below_minimum', bounds };
  if (amount > bounds.max) return { ok: false, reason: 'above_maximum', bounds };
  if (bounds.step !== undefined && bounds.step > 0n && amount % bounds.step !== 0n) return { ok: false, reason: 'not_a_multiple', bounds };
  return { ok: true };
}

/** Whether the provider would accept `text` as a payer or payee message. */
export function isAcceptableMessage(rules: MessageRules, text: string): boolean {
  const length = [...text].length;
  return length >= rules.minLength && length <= rules.maxLength && ![...text].some((c) => rules.forbidden.includes(c));
}

/**
 * `text` made acceptable: forbidden characters replaced by a space, spaces collapsed, cut to the
 * maximum length; `fallback` when nothing is left (MTN refuses an empty message).
 */
export function fitMessage(rules: MessageRules, text: string, fallback: string): string {
  const cleaned = [...text]
    .map((c) => (rules.forbidden.includes(c) ? ' ' : c))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  const cut = [...cleaned].slice(0, rules.maxLength).join('').trim();
  if ([...cut].length >= Math.max(1, rules.minLength)) return cut;
  return [...fallback].slice(0, rules.maxLength).join('');
}

/**
 * Why this connector cannot give back a payment made with `method` (its description's
 * `refundUnsupported`), or undefined when it can as far as the method goes.
 */
export function refundRefusal(description: Pick<ProviderDescription, 'refundUnsupported'> | undefined, method: string): string | undefined {
  return description?.refundUnsupported?.[method];
}
