import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Hangs, readRequestBody, SandboxAnswer } from '../sandbox/sandbox.http.ts';
import { CUSTOMER_MESSAGE } from './pawapay.description.ts';
import { pawapayProvider } from './pawapay.providers.ts';
import { parse, refusal, rejected } from './pawapay.sandbox.answers.ts';
import type { PawapayPayments } from './pawapay.sandbox.payments.ts';
import { type PawapayOperation, PREAUTH_EXPIRED_CODE, PREAUTH_WRONG_CODE, type SandboxPayment } from './pawapay.sandbox.types.ts';
import { checkDepositBody, checkPayoutBody, checkRefundBody, DepositBody, PayoutBody, RefundBody } from './pawapay.schema.ts';

/** Initiating deposits, payouts and refunds (`POST /v2/deposits`, `/v2/payouts`, `/v2/refunds`), with pawaPay's checks. */
export function pawapayInitiations(ctx: {
  limits: { min: number; max: number };
  hangs: Hangs;
  payments: PawapayPayments;
  /** Whether the account's active configuration enables this operation for this operator. */
  enabled: (operation: PawapayOperation, code: string) => boolean;
}) {
  const { limits, hangs, payments } = ctx;

  /** An operation the account's configuration leaves out for this operator: refused, nothing created. */
  function notAllowed(operation: PawapayOperation, code: string): SandboxAnswer | undefined {
    if (ctx.enabled(operation, code)) return undefined;
    return refusal(403, `${operation}S_NOT_ALLOWED`, `${operation.toLowerCase()}s to ${code} are not enabled for this account`);
  }

  /** The checks every initiation makes, as REJECTED answers; undefined when the request may go on. */
  function checkMoney(idField: string, id: string, provider: string, phoneNumber: string, amount: string, currency: string, message: string | undefined) {
    if (message !== undefined && !CUSTOMER_MESSAGE.pattern.test(message))
      throw refusal(400, 'INVALID_PARAMETER', 'customerMessage must be 4 to 22 characters: letters, digits and spaces');
    const operator = pawapayProvider(provider);
    if (operator === undefined) return { answer: rejected(idField, id, 'INVALID_PROVIDER', `${provider} is not a provider of this account`) };
    if (currency !== operator.currency) return { answer: rejected(idField, id, 'INVALID_CURRENCY', `${operator.code} takes ${operator.currency}`) };
    if (!/^[0-9]+$/.test(amount) || amount.startsWith('0')) return { answer: rejected(idField, id, 'INVALID_AMOUNT', `${operator.code} takes no decimals`) };
    const whole = Number(amount);
    if (whole < limits.min || whole > limits.max)
      return { answer: rejected(idField, id, 'AMOUNT_OUT_OF_BOUNDS', `${operator.code} takes ${limits.min} to ${limits.max} ${operator.currency}`) };
    if (!phoneNumber.startsWith(operator.prefix) || phoneNumber.length < operator.prefix.length + 8)
      return { answer: rejected(idField, id, 'INVALID_PHONE_NUMBER', `${phoneNumber} is not a number of ${operator.country3}`) };
    return { operator };
  }

  /** An accepted initiation's answer, or the fault its number asks for (it is stored all the same). */
  function accepted(idField: string, p: SandboxPayment, res: ServerResponse): SandboxAnswer | undefined {
    payments.settle();
    if (p.outcome.fault === 'hang') return hangs.hold(res);
    if (p.outcome.fault === 'answer500') return refusal(500, 'UNKNOWN_ERROR', 'Internal error');
    return new SandboxAnswer(200, {
      [idField]: p.id,
      status: 'ACCEPTED',
      created: new Date(p.createdAt).toISOString(),
      // A redirect operator's page comes later, with the status read (pawaPay's GET_AUTH_URL).
      ...(payments.redirected(p) ? { nextStep: 'GET_AUTH_URL' } : {}),
    });
  }

  async function deposit(req: IncomingMessage, res: ServerResponse) {
    const body = parse<DepositBody>(await readRequestBody(req, undefined), checkDepositBody, DepositBody, ['depositId', 'amount', 'currency', 'payer']);
    if (payments.get(body.depositId) !== undefined) return new SandboxAnswer(200, { depositId: body.depositId, status: 'DUPLICATE_IGNORED' });
    const { phoneNumber, provider } = body.payer.accountDetails;
    const checked = checkMoney('depositId', body.depositId, provider, phoneNumber, body.amount, body.currency, body.customerMessage);
    if (checked.answer) return checked.answer;
    const { operator } = checked;
    const off = notAllowed('DEPOSIT', operator.code);
    if (off) return off;
    const code = body.preAuthorisationCode;
    if (operator.authType === 'PREAUTH') {
      if (code === undefined) throw refusal(400, 'MISSING_PARAMETER', `preAuthorisationCode is required for ${operator.code}`);
      if (!/^[0-9]{4,10}$/.test(code)) throw refusal(400, 'INVALID_PARAMETER', 'preAuthorisationCode must be the 4 to 10 digits the payer was given');
    } else if (code !== undefined) {
      throw refusal(400, 'UNSUPPORTED_PARAMETER', `${operator.code} takes no preAuthorisationCode`);
    }
    const p = payments.newPayment('deposit', body.depositId, operator, phoneNumber, body.amount, body.currency, {
      ...(body.customerMessage !== undefined ? { customerMessage: body.customerMessage } : {}),
      ...(body.clientReferenceId !== undefined ? { clientReferenceId: body.clientReferenceId } : {}),
    });
    // A wrong or expired code: accepted, then failed by the operator, as the phone's refusal would be.
    if (code === PREAUTH_WRONG_CODE) p.outcome = { status: 'FAILED', reason: 'INVALID_PREAUTHORISATION_CODE', afterMs: 0 };
    if (code === PREAUTH_EXPIRED_CODE) p.outcome = { status: 'FAILED', reason: 'PREAUTHORISATION_CODE_EXPIRED', afterMs: 0 };
    return accepted('depositId', p, res);
  }

  async function payout(req: IncomingMessage, res: ServerResponse) {
    const body = parse<PayoutBody>(await readRequestBody(req, undefined), checkPayoutBody, PayoutBody, ['payoutId', 'amount', 'currency', 'recipient']);
    if (payments.get(body.payoutId) !== undefined) return new SandboxAnswer(200, { payoutId: body.payoutId, status: 'DUPLICATE_IGNORED' });
    const { phoneNumber, provider } = body.recipient.accountDetails;
    const checked = checkMoney('payoutId', body.payoutId, provider, phoneNumber, body.amount, body.currency, body.customerMessage);
    if (checked.answer) return checked.answer;
    const off = notAllowed('PAYOUT', checked.operator.code);
    if (off) return off;
    const p = payments.newPayment('payout', body.payoutId, checked.operator, phoneNumber, body.amount, body.currency, {
      ...(body.customerMessage !== undefined ? { customerMessage: body.customerMessage } : {}),
    });
    // No approval on a payout: the payee's number fails it or not, never by expiry.
    if (p.outcome.reason === 'PAYER_NOT_FOUND') p.outcome = { ...p.outcome, reason: 'RECIPIENT_NOT_FOUND' };
    return accepted('payoutId', p, res);
  }

  async function refund(req: IncomingMessage, res: ServerResponse) {
    const body = parse<RefundBody>(await readRequestBody(req, undefined), checkRefundBody, RefundBody, ['refundId', 'depositId']);
    if (payments.get(body.refundId) !== undefined) return new SandboxAnswer(200, { refundId: body.refundId, status: 'DUPLICATE_IGNORED' });
    const d = payments.get(body.depositId);
    if (d === undefined || d.operation !== 'deposit') return rejected('refundId', body.refundId, 'DEPOSIT_NOT_FOUND', 'No deposit has this depositId');
    const off = notAllowed('REFUND', d.provider.code);
    if (off) return off;
    if (d.status !== 'COMPLETED') return rejected('refundId', body.refundId, 'DEPOSIT_NOT_COMPLETED', 'Only a completed deposit can be refunded');
    if ([...payments.all()].some((r) => r.operation === 'refund' && r.depositId === d.id && r.status !== 'COMPLETED' && r.status !== 'FAILED'))
      return rejected('refundId', body.refundId, 'REFUND_IN_PROGRESS', 'Another refund transaction is already in progress');
    const left = Number(d.amount) - d.refunded;
    if (left <= 0) return rejected('refundId', body.refundId, 'DEPOSIT_ALREADY_REFUNDED', 'Requested deposit has been already refunded');
    if (body.currency !== undefined && body.currency !== d.currency)
      return rejected('refundId', body.refundId, 'INVALID_CURRENCY', `The deposit is in ${d.currency}`);
    const amount = body.amount ?? String(left);
    if (!/^[1-9][0-9]*$/.test(amount)) return rejected('refundId', body.refundId, 'INVALID_AMOUNT', `${d.provider.code} takes no decimals`);
    if (Number(amount) > left) return rejected('refundId', body.refundId, 'AMOUNT_TOO_LARGE', `Amount should not be greater than ${left}`);
    const p = payments.newPayment('refund', body.refundId, d.provider, d.phoneNumber, amount, d.currency, {
      depositId: d.id,
      outcome: { status: 'SUCCESSFUL', afterMs: 1000 },
      ...(body.clientReferenceId !== undefined ? { clientReferenceId: body.clientReferenceId } : {}),
    });
    // Held against the deposit from now: a second refund cannot take it too.
    d.refunded += Number(amount);
    return accepted('refundId', p, res);
  }

  return { deposit, payout, refund };
}
