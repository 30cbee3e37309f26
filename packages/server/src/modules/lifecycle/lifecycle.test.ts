import { describe, expect, it } from 'vitest';
import { ManualClock, MINUTE, SECOND } from '../../platform/clock.ts';
import type { CancelResult, Connector, ConnectorRegistry, Decision, StatusResult, SubmitResult } from '../connectors/index.ts';
import { describeProvider, platformAccountConnector } from '../connectors/index.ts';
import type { ProviderRequest, RequestStore } from './lifecycle.repository.ts';
import type { ProviderRequestRow } from './lifecycle.ts';
import { createProviderLifecycle, PAGE_LOST_REASON, pageLostAfterMs } from './index.ts';

/** The scripted connector's bound on a submit (a real one's comes from its timeout setting). */
const SUBMIT_TIMEOUT_MS = 40 * SECOND;

/** A connector whose answers the test scripts, and which records every call. */
function scripted(answers: { submit: SubmitResult[]; status: StatusResult[]; cancel?: CancelResult[] }, provider = 'mtn_momo') {
  const calls: string[] = [];
  const next = <T>(list: T[], last: T) => (list.length > 1 ? (list.shift() as T) : (list[0] ?? last));
  const connector = {
    provider,
    submitTimeoutMs: SUBMIT_TIMEOUT_MS,
    collect: async (r: { reference: string }) => (
      calls.push(`collect ${r.reference}`),
      next(answers.submit, { status: 'UNKNOWN', reason: 'x' } as SubmitResult)
    ),
    disburse: async () => ({ status: 'UNKNOWN', reason: 'x' }) as SubmitResult,
    status: async (_k: string, ref: string, known?: { providerReference?: string }) => (
      calls.push(`status ${ref}${known?.providerReference ? ` ${known.providerReference}` : ''}`),
      next(answers.status, { status: 'UNKNOWN', reason: 'x' } as StatusResult)
    ),
    verifyCallback: async () => ({ ok: false, reason: 'x' }),
    ...(answers.cancel
      ? {
          cancel: async (_k: string, ref: string, known?: { providerReference?: string }) => (
            calls.push(`cancel ${ref}${known?.providerReference ? ` ${known.providerReference}` : ''}`),
            next(answers.cancel ?? [], { ok: false, reason: 'x' } as CancelResult)
          ),
        }
      : {}),
    close: async () => {},
  } as unknown as Connector;
  return { connector, calls };
}

function setup(
  answers: { submit: SubmitResult[]; status: StatusResult[]; cancel?: CancelResult[] },
  giveUpAfterMs?: number,
  withHandles = false,
  opts: { provider?: string; crashBeforeRemember?: boolean; account?: { current: string } } = {},
) {
  const account = opts.account ?? { current: 'pac_sandbox_mtn_momo' };
  const provider = opts.provider ?? 'mtn_momo';
  let crash = opts.crashBeforeRemember ?? false;
  const clock = new ManualClock(new Date('2026-11-25T10:00:00Z'));
  // The owner's row, with its request's timings beside it (`next`, `polls`).
  const row: ProviderRequestRow & { status: string; next: Date; polls: number; handle?: string } = {
    id: 'top_1',
    mode: 'test',
    provider,
    connector: provider,
    provider_account: account.current,
    reference: 'ref-1',
    polls: 0,
    created_at: clock.now(),
    status: 'PENDING',
    next: clock.now(),
  };
  const requestOf = (): ProviderRequest => ({
    id: row.id,
    kind: 'topup',
    reference: row.reference,
    mode: row.mode,
    connector: row.connector,
    provider_account: row.provider_account,
    status: row.status === 'PENDING' ? 'PENDING' : row.status === 'SUCCESSFUL' ? 'SUCCEEDED' : 'FAILED',
    submitted_at: null,
    next_poll_at: row.next,
    polls: row.polls,
    deadline_at: giveUpAfterMs === undefined ? null : new Date(row.created_at.getTime() + giveUpAfterMs),
    created_at: row.created_at,
    updated_at: row.created_at,
    finished_at: null,
    callback_at: null,
  });
  const requests: RequestStore = {
    insert: async () => {},
    release: async () => {},
    findByReference: async (r) => (r === row.reference ? requestOf() : undefined),
    claimDue: async (now) => (row.status === 'PENDING' && row.next <= now ? (row.polls++, [requestOf()]) : []),
    markSubmitted: async () => {},
    scheduleNextPoll: async (_id, at) => {
      row.next = at;
    },
    findByReferences: async (refs) => (refs.includes(row.reference) ? [requestOf()] : []),
    noteCallbacks: async () => {},
    claimCallbacks: async () => [],
    clearCallbacks: async () => {},
  };
  const decisions: Decision[] = [];
  /** Every decision asked of the owner, taken or not (a late payment is the owner's to take). */
  const asked: Decision[] = [];
  const { connector, calls } = scripted(answers, provider);
  const registry: ConnectorRegistry = {
    get: () => connector,
    providers: () => [provider as 'mtn_momo'],
    account: () => account.current,
    close: async () => {},
  };
  const lifecycle = createProviderLifecycle({
    what: 'test',
    request_kind: 'topup',
    kind: 'collection',
    requests,
    connectors: {
      forMode: () => registry,
      forMerchant: async () => registry,
      byAccount: async (a) => platformAccountConnector({ forMode: () => registry }, a),
    },
    clock,
    giveUpAfterMs,
    store: {
      load: async (id) => (id === row.id ? { ...row } : undefined),
      loadByReference: async (r) => (r === row.reference ? { ...row } : undefined),
    },
    request: (r) => ({ reference: r.reference, amount: 100n, currency: 'XAF', phoneNumber: '+237650000000', externalId: r.id }),
    ...(withHandles
      ? {
          known: (r: typeof row) => ({ providerReference: r.handle }),
          remember: async (_r: typeof row, h: { providerReference?: string }) => {
            // The injected crash point: the process dies after the provider accepted the request,
            // before its answer is stored.
            if (crash) {
              crash = false;
              throw new Error('SIGKILL');
            }
            row.handle = h.providerReference;
          },
        }
      : {}),
    settle: async (_id, d) => {
      asked.push(d);
      // Decided once, as the owner's row lock makes it.
      if (row.status !== 'PENDING') return;
      row.status = d.status;
      decisions.push(d);
    },
  });
  return { clock, row, lifecycle, decisions, calls, asked, connector, requestOf };
}

describe('the provider-request lifecycle', () => {
  it("reads a request only with its own account: another account's settings leave it pending, never given up", async () => {
    const account = { current: 'pac_env_mtn_momo_aaaaaaaaaaaa' };
    const t = setup(
      { submit: [{ status: 'PENDING', duplicate: false }], status: [{ status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' }] },
      15 * MINUTE,
      false,
      { account },
    );
    await t.lifecycle.submit(t.row);
    // The variables change: a new key is another account.
    account.current = 'pac_env_mtn_momo_bbbbbbbbbbbb';
    t.clock.advance(20 * MINUTE);
    await t.lifecycle.pollDue();
    expect(await t.lifecycle.callback('mtn_momo', 'ref-1', { body: {}, headers: {} } as never)).toBe(true);
    expect(t.calls).toEqual(['collect ref-1']);
    expect(t.decisions).toEqual([]);
    expect(t.row.status).toBe('PENDING');
    // Back to the settings that made it: read, and decided.
    account.current = 'pac_env_mtn_momo_aaaaaaaaaaaa';
    t.clock.advance(MINUTE);
    await t.lifecycle.pollDue();
    expect(t.decisions).toEqual([{ status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' }]);
  });

  it('a row made before accounts were recorded is read by the environment account of today', async () => {
    const t = setup({ submit: [], status: [{ status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' }] }, undefined, false, {
      account: { current: 'pac_env_mtn_momo_cccccccccccc' },
    });
    t.row.provider_account = 'pac_env_mtn_momo';
    t.clock.advance(MINUTE);
    await t.lifecycle.pollDue();
    expect(t.decisions).toEqual([{ status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' }]);
  });

  it('UNKNOWN is never read as FAILED; NOT_FOUND resends the same reference; the status decides once', async () => {
    const t = setup({
      submit: [
        { status: 'UNKNOWN', reason: 'timeout' },
        { status: 'PENDING', duplicate: false },
      ],
      status: [{ status: 'UNKNOWN', reason: '500' }, { status: 'NOT_FOUND' }, { status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' }],
    });
    await t.lifecycle.submit(t.row);
    expect(t.decisions).toEqual([]);
    for (let i = 0; i < 3; i++) {
      t.clock.advance(MINUTE);
      await t.lifecycle.pollDue();
    }
    expect(t.calls).toEqual(['collect ref-1', 'status ref-1', 'status ref-1', 'collect ref-1', 'status ref-1']);
    expect(t.decisions).toEqual([{ status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' }]);
    t.clock.advance(MINUTE);
    expect(await t.lifecycle.pollDue()).toBe(0);
  });

  it('a refused submit is confirmed by a status read; a request never decided gives up only after its window', async () => {
    const refused = setup({ submit: [{ status: 'FAILED', reason: 'PAYER_NOT_FOUND' }], status: [{ status: 'NOT_FOUND' }] });
    await refused.lifecycle.submit(refused.row);
    expect(refused.decisions).toEqual([{ status: 'FAILED', reason: 'PAYER_NOT_FOUND' }]);

    const silent = setup({ submit: [{ status: 'PENDING', duplicate: false }], status: [{ status: 'PENDING', amount: 100n, currency: 'XAF' }] }, 15 * MINUTE);
    await silent.lifecycle.submit(silent.row);
    silent.clock.advance(14 * MINUTE);
    await silent.lifecycle.pollDue();
    expect(silent.decisions).toEqual([]);
    silent.clock.advance(MINUTE);
    await silent.lifecycle.pollDue();
    expect(silent.decisions).toEqual([{ status: 'FAILED', reason: 'TIMEOUT' }]);
  });

  it("stores the provider's own reference from the submit and gives it to every status read", async () => {
    const t = setup(
      {
        submit: [{ status: 'PENDING', duplicate: false, providerReference: 'pay-token-1', redirectUrl: 'https://pay.example/1' }],
        status: [{ status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' }],
      },
      undefined,
      true,
    );
    await t.lifecycle.submit(t.row);
    expect(t.row.handle).toBe('pay-token-1');
    t.clock.advance(MINUTE);
    await t.lifecycle.pollDue();
    expect(t.calls).toEqual(['collect ref-1', 'status ref-1 pay-token-1']);
    expect(t.decisions).toEqual([{ status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' }]);
  });

  it('a redirect request whose submit answer was lost (crash before remember) gets its page back from the next status read', async () => {
    const t = setup(
      {
        submit: [{ status: 'PENDING', duplicate: false }],
        status: [
          { status: 'PENDING', amount: 100n, currency: 'XAF', providerReference: 'cos-1', redirectUrl: 'https://pay.example/cos-1' },
          { status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' },
        ],
      },
      15 * MINUTE,
      true,
    );
    // The process died after the provider accepted the session: nothing of it was stored.
    expect(t.row.handle).toBeUndefined();
    t.clock.advance(MINUTE);
    await t.lifecycle.pollDue();
    expect(t.row.handle).toBe('cos-1');
    expect(t.decisions).toEqual([]);
    t.clock.advance(MINUTE);
    await t.lifecycle.pollDue();
    expect(t.calls).toEqual(['status ref-1', 'status ref-1 cos-1']);
    expect(t.decisions).toEqual([{ status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' }]);
  });

  describe('a redirect page lost in a crash', () => {
    const accepted: SubmitResult = { status: 'PENDING', duplicate: false, providerReference: 'tok-1', redirectUrl: 'https://pay.example/tok-1' };

    it('a provider read only by what the submit answered (Orange): fails with PAGE_LOST once the submit can no longer be running', async () => {
      expect(describeProvider('orange_money')?.statusByReference).toBe(false);
      const t = setup(
        { submit: [accepted], status: [{ status: 'UNKNOWN', reason: 'the pay_token and amount of this request are not known' }] },
        15 * MINUTE,
        true,
        { provider: 'orange_money', crashBeforeRemember: true },
      );
      await expect(t.lifecycle.submit(t.row)).rejects.toThrow('SIGKILL');
      expect(t.row.handle).toBeUndefined();
      const limit = pageLostAfterMs({ submitTimeoutMs: SUBMIT_TIMEOUT_MS });
      expect(limit).toBeGreaterThan(SUBMIT_TIMEOUT_MS);

      // The restarted worker: before the limit, a submit of a live process may still store the page.
      t.clock.advance(limit - SECOND);
      await t.lifecycle.pollDue();
      expect(t.decisions).toEqual([]);
      // Past it, at the next poll: failed at once, not after the 15-minute give-up.
      t.clock.advance(pollBackoff(t.row.next, t.clock.now()));
      await t.lifecycle.pollDue();
      expect(t.clock.now().getTime() - t.row.created_at.getTime()).toBeLessThan(MINUTE);
      expect(t.decisions).toEqual([{ status: 'FAILED', reason: PAGE_LOST_REASON }]);
      expect(t.calls).toEqual(['collect ref-1', 'status ref-1', 'status ref-1']);
    });

    it('a provider read by our reference (Wave) gets its page back instead, and is never failed for it', async () => {
      expect(describeProvider('wave')?.statusByReference).toBe(true);
      const t = setup(
        {
          submit: [accepted],
          status: [
            { status: 'UNKNOWN', reason: 'timeout' },
            { status: 'PENDING', amount: 100n, currency: 'XAF', providerReference: 'tok-1', redirectUrl: 'https://pay.example/tok-1' },
            { status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' },
          ],
        },
        15 * MINUTE,
        true,
        { provider: 'wave', crashBeforeRemember: true },
      );
      await expect(t.lifecycle.submit(t.row)).rejects.toThrow('SIGKILL');
      // Even a status read that says nothing past the limit does not fail it: it is asked again.
      t.clock.advance(pageLostAfterMs({ submitTimeoutMs: SUBMIT_TIMEOUT_MS }) + SECOND);
      await t.lifecycle.pollDue();
      expect(t.decisions).toEqual([]);
      t.clock.advance(MINUTE);
      await t.lifecycle.pollDue();
      expect(t.row.handle).toBe('tok-1');
      t.clock.advance(MINUTE);
      await t.lifecycle.pollDue();
      expect(t.decisions).toEqual([{ status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' }]);
    });

    it('an Orange request whose page was stored is never failed for it: it waits for its outcome', async () => {
      const t = setup({ submit: [accepted], status: [{ status: 'PENDING', amount: 100n, currency: 'XAF' }] }, 15 * MINUTE, true, { provider: 'orange_money' });
      await t.lifecycle.submit(t.row);
      t.clock.advance(5 * MINUTE);
      await t.lifecycle.pollDue();
      expect(t.decisions).toEqual([]);
      expect(t.calls).toEqual(['collect ref-1', 'status ref-1 tok-1']);
    });
  });
  describe('closing a request at the provider (Connector.cancel)', () => {
    const paid: StatusResult = { status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' };
    const open: StatusResult = { status: 'PENDING', amount: 100n, currency: 'XAF' };

    it('a request given up is closed at the provider after its decision, then read once: a payment that came first goes to the owner', async () => {
      const t = setup(
        {
          submit: [{ status: 'PENDING', duplicate: false, providerReference: 'cos-1' }],
          status: [open, open, paid],
          cancel: [{ ok: false, reason: 'HTTP 409' }],
        },
        15 * MINUTE,
        true,
        { provider: 'wave' },
      );
      await t.lifecycle.submit(t.row);
      t.clock.advance(14 * MINUTE);
      await t.lifecycle.pollDue();
      expect(t.calls).toEqual(['collect ref-1', 'status ref-1 cos-1']);
      t.clock.advance(MINUTE);
      await t.lifecycle.pollDue();
      // Given up first (committed), then the session closed, then read: paid before the close.
      expect(t.calls.slice(2)).toEqual(['status ref-1 cos-1', 'cancel ref-1 cos-1', 'status ref-1 cos-1']);
      expect(t.asked).toEqual([
        { status: 'FAILED', reason: 'TIMEOUT' },
        { status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' },
      ]);
    });

    it('a request the provider never had is not closed; a connector that cannot close is never asked', async () => {
      const never = setup(
        { submit: [{ status: 'UNKNOWN', reason: 'timeout' }], status: [{ status: 'NOT_FOUND' }], cancel: [{ ok: true }] },
        15 * MINUTE,
        false,
        {
          provider: 'wave',
        },
      );
      never.clock.advance(15 * MINUTE);
      await never.lifecycle.pollDue();
      expect(never.asked).toEqual([{ status: 'FAILED', reason: 'NOT_SUBMITTED' }]);
      expect(never.calls.filter((c) => c.startsWith('cancel'))).toEqual([]);

      const phone = setup({ submit: [{ status: 'PENDING', duplicate: false }], status: [open] }, 15 * MINUTE);
      await phone.lifecycle.submit(phone.row);
      phone.clock.advance(15 * MINUTE);
      await phone.lifecycle.pollDue();
      expect(phone.asked).toEqual([{ status: 'FAILED', reason: 'TIMEOUT' }]);
      expect(await phone.lifecycle.abandon(phone.row)).toBe(false);
    });

    it('abandon: closed at the provider, then decided by what it says; still open there, it stays pending', async () => {
      const closed = setup(
        {
          submit: [{ status: 'PENDING', duplicate: false, providerReference: 'cos-2' }],
          status: [{ status: 'FAILED', reason: 'APPROVAL_REJECTED', amount: 100n, currency: 'XAF' }],
          cancel: [{ ok: true }],
        },
        15 * MINUTE,
        true,
        { provider: 'wave' },
      );
      await closed.lifecycle.submit(closed.row);
      expect(await closed.lifecycle.abandon(closed.row)).toBe(true);
      expect(closed.calls).toEqual(['collect ref-1', 'cancel ref-1 cos-2', 'status ref-1 cos-2']);
      expect(closed.decisions).toEqual([{ status: 'FAILED', reason: 'APPROVAL_REJECTED' }]);

      // The close failed and the provider still says PENDING (the payer is paying): nothing decided.
      const busy = setup(
        { submit: [{ status: 'PENDING', duplicate: false }], status: [open], cancel: [{ ok: false, reason: 'HTTP 409' }] },
        15 * MINUTE,
        false,
        {
          provider: 'wave',
        },
      );
      await busy.lifecycle.submit(busy.row);
      expect(await busy.lifecycle.abandon(busy.row)).toBe(false);
      expect(busy.decisions).toEqual([]);
    });
  });

  describe('queued callbacks', () => {
    const SUCCESS: StatusResult = { status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' };
    /** The connector authenticates a callback alone when its URL ends with `/ours`. */
    function queued() {
      const t = setup({ submit: [{ status: 'PENDING', duplicate: false }], status: [SUCCESS] });
      const authenticate: NonNullable<Connector['authenticateCallback']> = async (cb) =>
        cb.url.endsWith('/ours')
          ? { ok: true, kind: 'collection', reference: 'ref-1', claimed: 'SUCCESSFUL' }
          : { ok: false, reason: 'the token does not match' };
      Object.assign(t.connector, { authenticateCallback: authenticate });
      const noted: string[] = [];
      const queue = async (id: string) => void noted.push(id);
      return { ...t, noted, queue };
    }

    it('a callback its connector authenticates alone is recorded and answered before any status read; its read settles once', async () => {
      const t = queued();
      await t.lifecycle.submit(t.row);
      expect(await t.lifecycle.callback('mtn_momo', 'ref-1', { url: '/cb/ours', body: '' }, t.requestOf(), t.queue)).toBe(true);
      expect(await t.lifecycle.callback('mtn_momo', 'ref-1', { url: '/cb/ours', body: '' }, t.requestOf(), t.queue)).toBe(true);
      expect(t.noted).toEqual(['top_1', 'top_1']);
      expect(t.calls).toEqual(['collect ref-1']);
      expect(t.decisions).toEqual([]);
      // A forged one is refused (400) and records nothing; another provider's URL is not its request (404).
      await expect(t.lifecycle.callback('mtn_momo', 'ref-1', { url: '/cb/forged', body: '' }, t.requestOf(), t.queue)).rejects.toMatchObject({
        code: 'callback_invalid',
      });
      expect(await t.lifecycle.callback('orange_money', 'ref-1', { url: '/cb/ours', body: '' }, t.requestOf(), t.queue)).toBe(false);
      expect(t.noted).toEqual(['top_1', 'top_1']);
      // The news, read twice (two callbacks, two readers): the provider's status decides, once.
      expect(await t.lifecycle.readCallback(t.requestOf())).toBe(true);
      expect(await t.lifecycle.readCallback(t.requestOf())).toBe(true);
      expect(t.calls).toEqual(['collect ref-1', 'status ref-1', 'status ref-1']);
      expect(t.asked).toHaveLength(2);
      expect(t.decisions).toEqual([{ status: 'SUCCESSFUL', amount: 100n, currency: 'XAF' }]);
    });

    it('without its own authentication (or without a queue) the answer waits for the status read', async () => {
      const t = setup({ submit: [{ status: 'PENDING', duplicate: false }], status: [{ status: 'FAILED', reason: 'REJECTED', amount: 100n, currency: 'XAF' }] });
      await t.lifecycle.submit(t.row);
      const noted: string[] = [];
      Object.assign(t.connector, {
        verifyCallback: async () => ({ ok: true, kind: 'collection', reference: 'ref-1', claimed: 'FAILED', result: { status: 'FAILED', reason: 'REJECTED' } }),
      });
      expect(await t.lifecycle.callback('mtn_momo', 'ref-1', { url: '/cb', body: '' }, t.requestOf(), async (id) => void noted.push(id))).toBe(true);
      expect(noted).toEqual([]);
      expect(t.decisions).toEqual([{ status: 'FAILED', reason: 'REJECTED' }]);
    });

    it('a read that fails keeps its news (false): it is read again', async () => {
      const t = queued();
      await t.lifecycle.submit(t.row);
      Object.assign(t.connector, {
        status: async () => {
          throw new Error('socket hang up');
        },
      });
      expect(await t.lifecycle.readCallback(t.requestOf())).toBe(false);
      expect(t.decisions).toEqual([]);
    });
  });
});

/** How far the next poll is from now (none past due). */
function pollBackoff(next: Date, now: Date): number {
  return Math.max(0, next.getTime() - now.getTime());
}
