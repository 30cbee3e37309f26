import { Agent, request } from 'undici';
import type { RandomBytes } from '../../../platform/crypto.ts';
import type { SandboxFaults, SandboxCallback, SandboxOverride, SandboxRequestView, Stored } from './mtn-momo.sandbox.types.ts';

/**
 * The requests the MoMo sandbox holds: their final states, reached when their time comes, what a
 * status read (and the callback) answers about each, and the callbacks themselves.
 */
export function momoRequests(ctx: {
  now: () => number;
  random: RandomBytes;
  approvalWindowMs: number;
  callbackTimeoutMs: number;
  log: (line: string) => void;
  faults: () => SandboxFaults;
}) {
  const { now, random, approvalWindowMs, callbackTimeoutMs, log } = ctx;
  const store = new Map<string, Stored>();
  const pending = new Set<Stored>();
  const deliveries = new Set<Promise<void>>();
  const agent = new Agent({ keepAliveTimeout: 1000 });

  const financialTransactionId = () => (random(8).readBigUInt64BE() % 10_000_000_000n).toString().padStart(10, '0');

  /** What MTN's GET answers for a request right now; the callback body is the same. */
  function answerOf(r: Stored) {
    const status = r.override?.status ?? r.final?.status ?? 'PENDING';
    const reason = r.override?.reason ?? (r.override?.status === undefined ? r.final?.reason : undefined);
    const ftid = r.override?.financialTransactionId ?? r.final?.financialTransactionId;
    const { amount, currency, externalId, payerMessage, payeeNote } = r.body;
    const party = 'payer' in r.body ? { payer: r.body.payer } : { payee: r.body.payee };
    return {
      amount: r.override?.amount ?? amount,
      currency,
      externalId,
      ...party,
      payerMessage,
      payeeNote,
      status,
      ...(status === 'FAILED' && reason !== undefined ? { reason } : {}),
      ...(status === 'SUCCESSFUL' && ftid !== undefined ? { financialTransactionId: ftid } : {}),
    };
  }

  function view(r: Stored): SandboxRequestView {
    const a = answerOf(r);
    return {
      referenceId: r.referenceId,
      kind: r.kind,
      partyId: r.partyId,
      amount: a.amount,
      currency: a.currency,
      externalId: a.externalId,
      payerMessage: a.payerMessage,
      payeeNote: a.payeeNote,
      status: a.status,
      ...('reason' in a ? { reason: a.reason } : {}),
      ...('financialTransactionId' in a ? { financialTransactionId: a.financialTransactionId } : {}),
      createdAt: new Date(r.createdAt).toISOString(),
      ...(r.final ? { finalAt: new Date(r.final.at).toISOString() } : {}),
      overridden: r.override !== undefined,
      ...(r.callbackUrl !== undefined ? { callbackUrl: r.callbackUrl } : {}),
      callbacks: r.callbacks,
    };
  }

  /** MTN sends requesttopay callbacks with PUT and transfer callbacks with POST; receivers must take both. */
  async function deliver(r: Stored, url: string): Promise<void> {
    const method = r.kind === 'collection' ? 'PUT' : 'POST';
    const entry: SandboxCallback = { at: new Date(now()).toISOString(), method };
    r.callbacks.push(entry);
    try {
      const res = await request(url, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(answerOf(r)),
        dispatcher: agent,
        signal: AbortSignal.timeout(callbackTimeoutMs),
      });
      await res.body.dump();
      entry.httpStatus = res.statusCode;
    } catch (err) {
      // Like MTN, no retry: the receiver learns the outcome by polling instead.
      entry.error = (err as { code?: string; name?: string }).code ?? (err as Error).name;
    }
    log(`callback ${method} ${r.referenceId} → ${entry.httpStatus ?? entry.error}`);
  }

  function track(p: Promise<void>) {
    deliveries.add(p);
    void p.finally(() => deliveries.delete(p));
  }

  function decide(r: Stored, t: number): void {
    pending.delete(r);
    r.final = {
      status: r.outcome.status,
      at: t,
      ...(r.outcome.reason !== undefined ? { reason: r.outcome.reason } : {}),
      ...(r.outcome.status === 'SUCCESSFUL' ? { financialTransactionId: financialTransactionId() } : {}),
    };
  }

  /** Every request whose time has come reaches its final state, and its callback leaves. */
  function settle(): void {
    const faults = ctx.faults();
    const t = now();
    for (const r of pending) {
      const after = r.outcome.window ? approvalWindowMs : r.outcome.afterMs;
      if (after === null || t < r.createdAt + after) continue;
      decide(r, t);
      const url = r.callbackUrl;
      if (url === undefined || faults.dropCallbacks) continue;
      const twice = faults.duplicateCallbacks;
      track(deliver(r, url).then(() => (twice ? deliver(r, url) : undefined)));
    }
  }

  function overrideOne(referenceId: string, change: SandboxOverride): SandboxRequestView | undefined {
    const r = store.get(referenceId.toLowerCase());
    if (r === undefined) return undefined;
    const merged = { ...r.override, ...change };
    if (merged.status === 'SUCCESSFUL' && r.final?.financialTransactionId === undefined && merged.financialTransactionId === undefined) {
      merged.financialTransactionId = financialTransactionId();
    }
    r.override = merged;
    return view(r);
  }

  function callBackOne(referenceId: string): boolean {
    const r = store.get(referenceId.toLowerCase());
    if (r?.callbackUrl === undefined) return false;
    track(deliver(r, r.callbackUrl));
    return true;
  }

  function forgetOne(referenceId: string): boolean {
    const r = store.get(referenceId.toLowerCase());
    if (r === undefined) return false;
    store.delete(r.referenceId);
    pending.delete(r);
    return true;
  }

  return {
    answerOf,
    view,
    decide,
    settle,
    /** A request by its reference, whatever its case. */
    get: (referenceId: string) => store.get(referenceId.toLowerCase()),
    /** A new request (its reference in lower case), pending until its time comes. */
    add(r: Stored): void {
      store.set(r.referenceId, r);
      pending.add(r);
    },
    all: () => store.values(),
    size: () => store.size,
    /** Sends a request's callback once more (109), tracked like the others. */
    callBackAgain(r: Stored, url: string): void {
      track(deliver(r, url));
    },
    override: overrideOne,
    callBack: callBackOne,
    forget: forgetOne,
    /** Waits until every callback that left is delivered. */
    async drain(): Promise<void> {
      while (deliveries.size > 0) await Promise.all([...deliveries]);
    },
    async close(): Promise<void> {
      await Promise.allSettled([...deliveries]);
      await agent.close();
    },
  };
}

export type MomoRequests = ReturnType<typeof momoRequests>;
