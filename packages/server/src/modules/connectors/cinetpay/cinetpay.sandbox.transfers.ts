import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomToken, safeEqual } from '../../../platform/crypto.ts';
import { checkAmountBounds } from '../connectors.description.ts';
import { formFields, readRequestBody, SandboxAnswer } from '../sandbox/sandbox.http.ts';
import { testOutcome } from '../sandbox/test-numbers.ts';
import { CINETPAY_DESCRIPTION } from './cinetpay.description.ts';
import { TRANSFER_CODES } from './cinetpay.rules.ts';
import { transferAnswer } from './cinetpay.sandbox.answers.ts';
import type { CinetPaySandboxParts, CinetPaySandboxTransfer, Transfer } from './cinetpay.sandbox.types.ts';
import { type CinetPayContact, type CinetPayTransfer, checkCinetPayContacts, checkCinetPayTransfers } from './cinetpay.schema.ts';

const TOKEN_LIFE_MS = 5 * 60_000;

/**
 * The CinetPay sandbox's transfer API: the login that issues its token (`/v1/auth/login`),
 * contacts (`/v1/transfer/contact`), sending money to them (`/v1/transfer/money/send/contact`),
 * the check (`/v1/transfer/check/money`), and the notification a decided transfer sends.
 */
export function cinetPayTransfers(ctx: CinetPaySandboxParts) {
  const { opts, windowMs, hangs, notifier, keyOk } = ctx;
  const tokens = new Map<string, number>();
  let tokensIssued = 0;
  const contacts = new Set<string>();
  const transfers = new Map<string, Transfer>();

  function settleTransfers(): void {
    const now = opts.now();
    for (const t of transfers.values()) {
      const { afterMs } = t.outcome;
      const due = afterMs === null ? undefined : afterMs === 'window' ? t.createdAt + windowMs : t.createdAt + afterMs;
      if (t.status !== 'NEW' || due === undefined || now < due) continue;
      t.status = t.outcome.status === 'SUCCESSFUL' ? 'VAL' : 'REJ';
      if (t.outcome.reason !== undefined) t.comment = t.outcome.reason;
      void notifyTransfer(t);
    }
  }

  const deliveries = new Set<Promise<void>>();
  function notifyTransfer(t: Transfer): Promise<void> {
    const url = t.body.notify_url;
    if (url === undefined || url === '' || ctx.faults().dropCallbacks) return Promise.resolve();
    const fields = {
      transaction_id: t.id,
      client_transaction_id: t.body.client_transaction_id,
      lot: t.lot,
      amount: String(t.body.amount),
      receiver: `${t.body.prefix}${t.body.phone}`,
      operator: 'MOMO',
      treatment_status: t.status,
    };
    const delivery = notifier
      .post(url, { 'content-type': 'application/x-www-form-urlencoded' }, new URLSearchParams(fields).toString())
      .then((entry) => void t.notifications.push(entry));
    deliveries.add(delivery);
    void delivery.finally(() => deliveries.delete(delivery));
    return delivery;
  }

  function transferView(t: Transfer) {
    return {
      transaction_id: t.id,
      client_transaction_id: t.body.client_transaction_id,
      lot: t.lot,
      amount: Number(t.body.amount),
      receiver: `${t.body.prefix}${t.body.phone}`,
      operator: 'MOMO',
      sending_status: t.status === 'VAL' ? 'CONFIRM' : t.status === 'REJ' ? 'FAILED' : 'PENDING',
      treatment_status: t.status,
      comment: t.comment ?? null,
      validated_at: null,
    };
  }

  /** The transfer API's token, from the query: 705 when it died, 706 when it never was. */
  function authorize(query: URLSearchParams): SandboxAnswer | undefined {
    const token = query.get('token') ?? '';
    const expires = tokens.get(token);
    if (expires === undefined) return transferAnswer(TRANSFER_CODES.INVALID_TOKEN, 'INVALID_TOKEN', 'Votre token est invalide');
    if (opts.now() >= expires) return transferAnswer(TRANSFER_CODES.EXPIRED_TOKEN, 'EXPIRED_TOKEN', 'Votre token a expiré');
    return undefined;
  }

  async function login(req: IncomingMessage): Promise<SandboxAnswer> {
    const form = formFields(await readRequestBody(req, 'too large'));
    const passwordOk = opts.transferPassword === undefined ? (form.password ?? '') !== '' : safeEqual(form.password ?? '', opts.transferPassword);
    if (!keyOk(form.apikey ?? '') || !passwordOk)
      return transferAnswer(TRANSFER_CODES.INVALID_CREDENTIALS, 'INVALID_CREDENTIALS', 'Identifiant de connexion incorrect');
    const token = randomToken(opts.random, 24);
    tokens.set(token, opts.now() + TOKEN_LIFE_MS);
    tokensIssued += 1;
    return transferAnswer(TRANSFER_CODES.OPERATION_SUCCES, 'OPERATION_SUCCES', 'Token generated', { token });
  }

  function listOf<T>(text: string, check: { Check(v: unknown): v is T }): T | undefined {
    const data = formFields(text).data;
    if (data === undefined) return undefined;
    try {
      const parsed: unknown = JSON.parse(data);
      return check.Check(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  async function addContacts(req: IncomingMessage): Promise<SandboxAnswer> {
    const list = listOf<CinetPayContact[]>(await readRequestBody(req, 'too large'), checkCinetPayContacts);
    if (list === undefined)
      return transferAnswer(TRANSFER_CODES.DATA_NOT_VALID, 'DATA_NOT_VALID', 'data must be a JSON list of {prefix, phone, name, surname, email}');
    const lot = `${Math.floor(opts.now())}${randomToken(opts.random, 4)}`;
    const answered = list.map((c) => {
      const key = `${c.prefix}${c.phone}`;
      const known = contacts.has(key);
      contacts.add(key);
      return { ...c, code: known ? TRANSFER_CODES.ERROR_PHONE_ALREADY_MY_CONTACT : 0, status: known ? 'ERROR_PHONE_ALREADY_MY_CONTACT' : 'success', lot };
    });
    return transferAnswer(TRANSFER_CODES.OPERATION_SUCCES, 'OPERATION_SUCCES', 'Contacts added', [answered]);
  }

  async function sendMoney(req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    const list = listOf<CinetPayTransfer[]>(await readRequestBody(req, 'too large'), checkCinetPayTransfers);
    if (list === undefined)
      return transferAnswer(
        TRANSFER_CODES.DATA_NOT_VALID,
        'DATA_NOT_VALID',
        'data must be a JSON list of {prefix, phone, amount, client_transaction_id, notify_url}',
      );
    for (const t of list) {
      const amount = Number(t.amount);
      if (!contacts.has(`${t.prefix}${t.phone}`))
        return transferAnswer(TRANSFER_CODES.ERROR_PHONE_NOT_MY_CONTACT, 'ERROR_PHONE_NOT_MY_CONTACT', `${t.prefix}${t.phone} is not one of your contacts`);
      if (amount % 5 !== 0) return transferAnswer(TRANSFER_CODES.INVALID_AMOUNT, 'INVALID_AMOUNT', 'the amount must be a multiple of 5');
      const bounds = checkAmountBounds(CINETPAY_DESCRIPTION, t.prefix === '237' ? 'XAF' : 'XOF', BigInt(amount));
      if (!bounds.ok && bounds.reason === 'below_minimum')
        return transferAnswer(TRANSFER_CODES.AMOUNT_TOO_SMALL, 'AMOUNT_TOO_SMALL', 'the amount is below the threshold');
      if (!bounds.ok && bounds.reason === 'above_maximum')
        return transferAnswer(TRANSFER_CODES.AMOUNT_TOO_LARGE, 'AMOUNT_TOO_LARGE', 'the amount is above the threshold');
      if ([...transfers.values()].some((x) => x.body.client_transaction_id === t.client_transaction_id))
        return transferAnswer(TRANSFER_CODES.CLIENT_TRANSACTION_ID_EXIST, 'CLIENT_TRANSACTION_ID_EXIST', 'Your transaction ID already exists on CinetPay');
    }
    const lot = `${Math.floor(opts.now())}${randomToken(opts.random, 4)}`;
    const made = list.map((body) => {
      const t: Transfer = {
        id: `TR${randomToken(opts.random, 9)}`,
        body,
        lot,
        createdAt: opts.now(),
        outcome: testOutcome(`${body.prefix}${body.phone}`),
        status: 'NEW',
        notifications: [],
      };
      transfers.set(t.id, t);
      return t;
    });
    settleTransfers();
    const fault = made.map((t) => t.outcome.fault).find((f) => f !== undefined);
    if (fault === 'hang') return hangs.hold(res);
    if (fault === 'answer500') return new SandboxAnswer(500, { code: '500', message: 'INTERNAL_ERROR' });
    return transferAnswer(TRANSFER_CODES.OPERATION_SUCCES, 'OPERATION_SUCCES', 'Transfers registered', [
      made.map((t) => ({ prefix: t.body.prefix, phone: t.body.phone, code: 0, status: 'success', ...transferView(t) })),
    ]);
  }

  function checkMoney(query: URLSearchParams): SandboxAnswer {
    const id = query.get('client_transaction_id');
    const found = [...transfers.values()].filter((t) => t.body.client_transaction_id === id || t.id === query.get('transaction_id'));
    if (found.length === 0) return transferAnswer(TRANSFER_CODES.NOT_FOUND, 'NOT_FOUND', 'No results for this search');
    return transferAnswer(TRANSFER_CODES.OPERATION_SUCCES, 'OPERATION_SUCCES', '', found.map(transferView));
  }

  return {
    settle: settleTransfers,
    authorize,
    login,
    addContacts,
    sendMoney,
    checkMoney,
    /** Every transfer sent, as the check shows it, with its notifications. */
    list: (): CinetPaySandboxTransfer[] => [...transfers.values()].map((t) => ({ ...transferView(t), notifications: t.notifications })),
    stats: () => ({ transfers: transfers.size, contacts: contacts.size, tokensIssued }),
    /** Every transfer token issued so far stops working (705). */
    expireTokens(): void {
      for (const token of tokens.keys()) tokens.set(token, 0);
    },
    /** Waits until every notification that left is delivered. */
    async drain(): Promise<void> {
      while (deliveries.size > 0) await Promise.allSettled([...deliveries]);
    },
  };
}
