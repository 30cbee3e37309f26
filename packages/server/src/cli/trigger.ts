import type { Caisse } from '@caisse/node';
import { describeProvider, isPaymentMethod, providerDescriptions, type ProviderDescription, type ProviderName } from '../modules/connectors/index.ts';
import { CliError } from './errors.ts';
import type { EventType } from './event-types.ts';
import { testPayments } from './test-payments.ts';

/**
 * `caisse trigger <event type>` (docs/spec/running.md): a real test payment over HTTP against the running
 * server that produces that event, through the same routes a shop uses (with @caisse/node):
 *
 * - `payment.completed`: a test user with 5 000 XAF, an intent of 5 000 XAF, initOtp, the code
 *   from the test outbox, verifyOtp, charge.
 * - `payment.failed`: the same with a wallet of 1 000 XAF: the charge is declined (402
 *   `insufficient_funds`, one attempt of three used) and the intent stays PENDING.
 * - `payment.refunded`: a completed payment, then a refund of the whole amount (so
 *   `payment.completed` comes first).
 * - `payment.canceled`: an intent, then POST /gateway/{id}/cancel.
 * - `payment.expired`: cannot happen at once: intents live at least 300 s. An intent is created
 *   with `expiresIn: 300`; the server's sweeper sends `payment.expired` within seconds of
 *   `expiresAt`, which is printed.
 *
 * With `--method <provider>` (a provider of the registry that prompts the payer's phone and takes
 * XAF, `directProviders()`) the payment is made directly with that provider instead (the intent's
 * session token and a new test number of the provider's: the sandbox approves numbers ending in
 * 000 after about a second, declines those ending in 105), for `payment.completed`,
 * `payment.failed` (declined on the phone) and `payment.refunded` (the refund goes back to the
 * number: PENDING until the provider pays it). `payment.processing` is always made that way (with
 * the first of them unless told): the attempt starts it.
 *
 * - `payout.paid`: a completed payment, its net made available at once (the test helper
 *   `POST /test/balance/settle`), then a payout of it to a sandbox number that succeeds; the
 *   server's poller (or the sandbox's callback) makes it PAID within seconds. The payout goes to
 *   the first provider that pays out in XAF, to one of its test numbers (`payoutTarget()`).
 * - `payout.failed`: the same, to its test number that fails (ending in 103).
 *
 * Every intent carries `metadata.triggeredBy = "caisse trigger"`.
 */

export const TRIGGER_AMOUNT = '5000';
const TRIGGER_CURRENCY = 'XAF';

/**
 * The providers a triggered payment can be made with directly, from the registry: those that take
 * the trigger's currency and ask the payer on the phone (the sandbox decides by the number; a
 * redirect provider would need its payment page clicked).
 */
export function directProviders(): ProviderName[] {
  return providerDescriptions()
    .filter(
      (d) =>
        isPaymentMethod(d) && d.capabilities.collect && d.approval === 'phone_prompt' && d.currencies.includes(TRIGGER_CURRENCY) && d.testNumbers.length > 0,
    )
    .map((d) => d.name as ProviderName);
}

/** How the triggered payment is paid: from a test user's wallet, or directly with a provider. */
export type TriggerMethod = 'wallet' | ProviderName;

/** `--method`'s values: `wallet` and every direct provider. */
export function triggerMethods(): TriggerMethod[] {
  return ['wallet', ...directProviders()];
}

/** One of the provider's test numbers without its last three digits (the outcome's). */
function numberBase(d: ProviderDescription): string {
  return (d.testNumbers[0]?.phoneNumber ?? '').slice(0, -3);
}

/** Where `payout.paid` and `payout.failed` send money: the first provider paying out in XAF, its test numbers ending 000 (paid) and 103 (fails). */
export function payoutTarget(): { provider: ProviderName; paid: string; failed: string } | undefined {
  const d = providerDescriptions().find((p) => p.capabilities.disburse && p.currencies.includes(TRIGGER_CURRENCY) && p.testNumbers.length > 0);
  return d === undefined ? undefined : { provider: d.name as ProviderName, paid: `${numberBase(d)}000`, failed: `${numberBase(d)}103` };
}
/** The events a payment made directly with mobile money can trigger. */
const DIRECT_EVENTS: readonly EventType[] = ['payment.processing', 'payment.completed', 'payment.failed', 'payment.refunded'];

export interface TriggerResult {
  type: EventType;
  intentId: string;
  /** The intent's status once the trigger is done (payment.failed: PENDING, an attempt used). */
  intentStatus: string;
  /** Events the trigger produced (ids), oldest first; empty for payment.expired. */
  events: { id: string; type: EventType }[];
  /** For payout.paid and payout.failed: the payout. */
  payoutId?: string;
  /** For payment.expired: when the intent expires. */
  expiresAt?: string;
  steps: string[];
}

export async function trigger(
  caisse: Caisse,
  type: EventType,
  say: (line: string) => void = () => {},
  wait: { sleep: (ms: number) => Promise<void>; timeoutMs: number } = { sleep: (ms) => new Promise((r) => setTimeout(r, ms)), timeoutMs: 60_000 },
  method: TriggerMethod | undefined = undefined,
): Promise<TriggerResult> {
  if (method === undefined) {
    const first = directProviders()[0];
    if (type === 'payment.processing' && first === undefined) throw new CliError('no provider can make payment.processing: none prompts the phone in XAF');
    method = type === 'payment.processing' && first !== undefined ? first : 'wallet';
  }
  if (method !== 'wallet' && !DIRECT_EVENTS.includes(type))
    throw new CliError(`--method ${method} makes ${DIRECT_EVENTS.join(', ')}; ${type} is made without it`);
  if (method === 'wallet' && type === 'payment.processing')
    throw new CliError(`payment.processing comes from a payment made directly with mobile money: use --method ${directProviders().join(' or ')}`);
  const pay = testPayments(caisse);
  const steps: string[] = [];
  const step = (line: string) => {
    steps.push(line);
    say(line);
  };
  const metadata = { triggeredBy: 'caisse trigger' };

  const intentFor = async (description: string, expiresIn?: number) => {
    const intent = await pay.createIntent({ amount: TRIGGER_AMOUNT, currency: 'XAF', description, metadata, ...(expiresIn ? { expiresIn } : {}) });
    step(`created intent ${intent.id} (${intent.amount} ${intent.currency}, ${intent.status})`);
    return intent;
  };

  const payIntent = async (balance: string) => {
    const user = await pay.createUser({ balance, currency: 'XAF' });
    step(`created test user ${user.id} with ${balance} XAF and signed in`);
    const intent = await intentFor(`caisse trigger ${type}`);
    const otpToken = await pay.authorize(user, intent.id);
    step('initOtp sent a code, read it from the test outbox, verifyOtp gave an authorization token');
    const res = await pay.charge(user, intent.id, otpToken);
    // What matters is where the intent stands, not the HTTP status of a declined charge.
    const after = res.intent ?? (await pay.getIntent(intent.id));
    step(
      res.problem?.code
        ? `charge declined (${res.problem.code}): intent ${intent.id} is ${after.status}, ${after.attempts} of 3 attempts used`
        : `charge succeeded: intent ${intent.id} is ${after.status}`,
    );
    return { intent, res, status: after.status };
  };

  /** Reads the intent every 500 ms until `done` says so (the server's poller decides a direct payment). */
  const until = async (intentId: string, done: (status: string) => boolean, what: string) => {
    const deadline = Date.now() + wait.timeoutMs;
    for (;;) {
      const intent = await pay.getIntent(intentId);
      if (done(intent.status)) return intent;
      if (Date.now() > deadline)
        throw new Error(`intent ${intentId} is still ${intent.status} after ${wait.timeoutMs / 1000} s, ${what}: is the server's worker running?`);
      await wait.sleep(500);
    }
  };

  /** A payment made directly with the provider from a number ending in `suffix`, until the provider decides it. */
  const payDirectly = async (provider: ProviderName, suffix: string) => {
    const d = describeProvider(provider) as ProviderDescription;
    const intent = await intentFor(`caisse trigger ${type} --method ${provider}`);
    const started = await pay.payDirectly(intent, provider, numberBase(d), suffix);
    step(
      `asked ${d.displayName} (sandbox) for ${started.amount} XAF from ${started.nextAction?.type === 'approve_on_phone' ? started.nextAction.phoneNumber : 'a test number'}: intent ${intent.id} is ${started.status}`,
    );
    if (type === 'payment.processing') return { intent, status: started.status };
    const after = await until(intent.id, (s) => s !== 'PROCESSING', 'waiting for the payer to approve');
    step(
      after.status === 'SUCCEEDED'
        ? `the payer approved: intent ${intent.id} is SUCCEEDED`
        : `the payer declined on the phone: intent ${intent.id} is ${after.status}`,
    );
    return { intent, status: after.status };
  };

  const produced = async (intentId: string, types: EventType[]) => {
    const found: { id: string; type: EventType }[] = [];
    for (const t of types) found.push(...(await pay.eventsOf(intentId, t)).reverse());
    return found;
  };

  if (method !== 'wallet') {
    const { intent, status } = await payDirectly(method, type === 'payment.failed' ? '105' : '000');
    const expected = type === 'payment.failed' ? 'PENDING' : type === 'payment.processing' ? 'PROCESSING' : 'SUCCEEDED';
    if (status !== expected) throw new Error(`expected intent ${intent.id} to be ${expected}, it is ${status}`);
    if (type !== 'payment.refunded') {
      const types: EventType[] = type === 'payment.processing' ? ['payment.processing'] : ['payment.processing', type];
      return { type, intentId: intent.id, intentStatus: status, events: await produced(intent.id, types), steps };
    }
    const refund = await pay.refund(intent.id);
    step(`asked for a refund of ${refund.amount} XAF to the payer's number (${refund.id}, ${refund.status})`);
    const refunded = await until(intent.id, (s) => s === 'REFUNDED', 'waiting for the provider to pay the refund');
    step(`the provider paid it back: intent ${intent.id} is ${refunded.status}`);
    return {
      type,
      intentId: intent.id,
      intentStatus: refunded.status,
      events: await produced(intent.id, ['payment.processing', 'payment.completed', 'payment.refunded']),
      steps,
    };
  }

  switch (type) {
    case 'payment.processing':
      throw new Error('unreachable: payment.processing is made with mobile money');
    case 'refund.failed':
      // Made by a refund to mobile money that the provider refuses.
      throw new CliError('caisse trigger cannot make refund.failed yet: refund a payment made with mobile money to a number whose transfer fails');
    case 'payment.completed': {
      const { intent, res, status } = await payIntent(TRIGGER_AMOUNT);
      if (res.status !== 200) throw new Error(`the charge was refused: ${res.status} ${JSON.stringify(res.problem)}`);
      return { type, intentId: intent.id, intentStatus: status, events: await produced(intent.id, ['payment.completed']), steps };
    }
    case 'payment.failed': {
      const { intent, res, status } = await payIntent('1000');
      if (res.status !== 402) throw new Error(`expected 402 insufficient_funds, got ${res.status} ${JSON.stringify(res.problem ?? res.intent)}`);
      return { type, intentId: intent.id, intentStatus: status, events: await produced(intent.id, ['payment.failed']), steps };
    }
    case 'payment.refunded': {
      const { intent, res } = await payIntent(TRIGGER_AMOUNT);
      if (res.status !== 200) throw new Error(`the charge was refused: ${res.status} ${JSON.stringify(res.problem)}`);
      const refund = await pay.refund(intent.id);
      step(`refunded ${refund.amount} XAF (${refund.id})`);
      return {
        type,
        intentId: intent.id,
        intentStatus: (await pay.getIntent(intent.id)).status,
        events: await produced(intent.id, ['payment.completed', 'payment.refunded']),
        steps,
      };
    }
    case 'payment.canceled': {
      const intent = await intentFor('caisse trigger payment.canceled');
      await pay.cancel(intent.id);
      step(`canceled ${intent.id}`);
      return { type, intentId: intent.id, intentStatus: 'CANCELED', events: await produced(intent.id, ['payment.canceled']), steps };
    }
    case 'payout.paid':
    case 'payout.failed': {
      const target = payoutTarget();
      if (target === undefined) throw new CliError(`no provider pays out in ${TRIGGER_CURRENCY}: ${type} cannot be made`);
      const to = type === 'payout.paid' ? target.paid : target.failed;
      const { intent, res } = await payIntent(TRIGGER_AMOUNT);
      if (res.status !== 200 || !res.intent) throw new Error(`the charge was refused: ${res.status} ${JSON.stringify(res.problem)}`);
      await caisse.testHelpers.settleBalance();
      const net = (await pay.getIntent(intent.id)).net ?? TRIGGER_AMOUNT;
      step(`made the payment's net (${net} XAF) available now (POST /test/balance/settle)`);
      const payout = await caisse.payouts.create({
        amount: net,
        currency: 'XAF',
        destination: { provider: target.provider, phoneNumber: to },
        description: `caisse trigger ${type}`,
      });
      step(`created payout ${payout.id} of ${payout.amount} XAF to ${to} with ${target.provider} (PENDING); waiting for the provider`);
      const deadline = Date.now() + wait.timeoutMs;
      let status: string = payout.status;
      while (status === 'PENDING') {
        if (Date.now() > deadline) throw new Error(`payout ${payout.id} is still PENDING after ${wait.timeoutMs / 1000} s: is the server's worker running?`);
        await wait.sleep(500);
        status = (await caisse.payouts.retrieve(payout.id)).status;
      }
      step(`payout ${payout.id} is ${status}`);
      return {
        type,
        intentId: intent.id,
        intentStatus: 'SUCCEEDED',
        payoutId: payout.id,
        events: (await pay.eventsOfPayout(payout.id, type)).reverse(),
        steps,
      };
    }
    case 'payment.expired': {
      const intent = await intentFor('caisse trigger payment.expired', 300);
      step(`it expires at ${intent.expiresAt} (intents live at least 300 s); the server sends payment.expired within seconds after that`);
      return { type, intentId: intent.id, intentStatus: intent.status, events: [], expiresAt: intent.expiresAt, steps };
    }
  }
}
