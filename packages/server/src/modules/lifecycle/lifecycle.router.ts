import type { Logger } from 'pino';
import { groupCommit } from '../../platform/batch.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Executor } from '../../platform/db.ts';
import { failureLevel } from '../../platform/db-unavailable.ts';
import type { ConnectorKind, ConnectorSource, IncomingCallback } from '../connectors/index.ts';
import { CALLBACK_BATCH, POLL_LEASE_MS, type ProviderLifecycle, type ProviderRequestRow } from './lifecycle.ts';
import { type RequestStore, requestStore } from './lifecycle.repository.ts';

/**
 * The providers' callbacks and the one poller: a callback's reference is looked up once in
 * provider_requests, which says whose it is; the poller claims the due requests of every kind and
 * hands each to its kind's lifecycle.
 */
export function createRequestRouter(
  lifecycles: readonly Pick<
    ProviderLifecycle<ProviderRequestRow>,
    'kind' | 'requestKind' | 'callback' | 'verified' | 'pollClaimed' | 'readCallback' | 'drain'
  >[],
  deps: { db: Executor; clock: Clock; connectors: ConnectorSource; requests?: RequestStore; logger?: Pick<Logger, 'error' | 'warn'> },
) {
  const { clock, connectors } = deps;
  const requests = deps.requests ?? requestStore(deps.db);
  const byKind = new Map(lifecycles.map((l) => [l.requestKind, l]));
  // A burst of callbacks (an operator back from an outage) costs one read and one write per
  // group of the same milliseconds, not two statements each (docs/decisions/0093-queued-callbacks.md).
  const lookUp = groupCommit(async (references: string[]) => new Map((await requests.findByReferences(references)).map((r) => [r.reference, r])));
  const note = groupCommit(async (ids: string[]) => {
    await requests.noteCallbacks(ids, clock.now());
    read();
    return new Map(ids.map((id) => [id, true]));
  });
  const queue = async (id: string) => void (await note(id));

  /**
   * Claims up to `limit` requests with news (of every kind), reads each one's status at its
   * provider and settles it, all at once; then clears the batch's news (one statement), unless a
   * callback came again meanwhile. Returns how many it claimed.
   */
  async function readCallbacks(limit = CALLBACK_BATCH): Promise<number> {
    const now = clock.now();
    const lease = new Date(now.getTime() + POLL_LEASE_MS);
    const claimed = await requests.claimCallbacks(now, lease, limit);
    if (claimed.length === 0) return 0;
    const read = await Promise.all(claimed.map(async (request) => ((await byKind.get(request.kind)?.readCallback(request)) ?? true) && request.id));
    const done = read.filter((id): id is string => id !== false);
    // A read that failed keeps its news: read again at its lease's end.
    if (done.length > 0) await requests.clearCallbacks(done, lease);
    return claimed.length;
  }

  // The process that recorded news reads it at once, behind the answers; news it leaves (it
  // died, or a read failed) is read by the poller's round once its lease ends.
  let reading: Promise<void> | undefined;
  let more = false;
  const inFlight = new Set<Promise<unknown>>();
  function read(): void {
    if (reading) {
      more = true;
      return;
    }
    reading = (async () => {
      do more = false;
      while ((await readCallbacks()) === CALLBACK_BATCH || more);
    })()
      .catch((err: unknown) => deps.logger?.[failureLevel(err)]({ err }, "mobile-money callbacks' status reads failed"))
      .finally(() => {
        inFlight.delete(reading as Promise<void>);
        reading = undefined;
      });
    inFlight.add(reading);
  }

  return {
    /**
     * False when no request has this reference, or not of this kind (the route answers 404). A
     * callback its connector authenticates alone is recorded (committed when this resolves) and
     * read behind the answer, by `readCallbacks`.
     */
    async handle(provider: string, kind: ConnectorKind, reference: string, callback: IncomingCallback): Promise<boolean> {
      const request = await lookUp(reference);
      const lifecycle = request && byKind.get(request.kind);
      if (!request || !lifecycle || lifecycle.kind !== kind) return false;
      return lifecycle.callback(provider, reference, callback, request, queue);
    },
    /** The news left behind (the poller's round): claims up to `limit` requests with news due and reads them. */
    readCallbacks,
    /**
     * A webhook sent to one URL for every request (Wave): the URL names no reference and carries
     * no token of ours, so the provider's signature over the raw body authenticates it. Each
     * mode's connector has its own secret: the one that verifies it says which mode it is.
     * Undefined when no connector verifies it (400), false when its request is not of this mode or
     * provider (404), true when taken: an authenticated event Caisse does not act on, or about a
     * reference it never made, is taken too (2xx), or the provider sends it again and again.
     */
    async handleSigned(provider: string, callback: IncomingCallback, account?: string): Promise<boolean | undefined> {
      // The URL names the account (`/callbacks/{provider}/{pac_…}`): only its secret verifies it,
      // and it decides only that account's requests.
      if (account !== undefined) {
        const connector = await connectors.byAccount(account);
        if (!connector || connector.provider !== provider) return undefined;
        const verified = await connector.verifyCallback(callback);
        if (!verified.ok) return verified.ignored === true ? true : undefined;
        const request = await requests.findByReference(verified.reference);
        const lifecycle = request && byKind.get(request.kind);
        if (!request || !lifecycle) return true;
        return lifecycle.verified(request.mode, provider, verified, request, account);
      }
      for (const mode of ['live', 'test'] as const) {
        const registry = connectors.forMode(mode);
        const connector = registry.get(provider);
        if (!connector) continue;
        const verified = await connector.verifyCallback(callback);
        // Authenticated, but about nothing Caisse acts on: taken (2xx), or the provider sends it again.
        if (!verified.ok && verified.ignored === true) return true;
        if (!verified.ok) continue;
        const request = await requests.findByReference(verified.reference);
        const lifecycle = request && byKind.get(request.kind);
        // Authenticated, about a reference Caisse never made (another system on the same provider
        // account): nothing to act on, and a 404 would only make the provider send it again.
        if (!request || !lifecycle) return true;
        return lifecycle.verified(mode, provider, verified, request, registry.account(provider));
      }
      return undefined;
    },
    /** The one poller's round: claims the due requests of every kind. Returns how many it claimed. */
    async pollDue(limit = 20): Promise<number> {
      const now = clock.now();
      const claimed = await requests.claimDue(now, new Date(now.getTime() + POLL_LEASE_MS), limit);
      await Promise.all(claimed.map((request) => byKind.get(request.kind)?.pollClaimed(request)));
      return claimed.length;
    },
    /** Waits for every lifecycle's provider calls and the callbacks' reads started in the background (shutdown). */
    async drain(): Promise<void> {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      await Promise.all(lifecycles.map((l) => l.drain()));
    },
  };
}

export type RequestRouter = ReturnType<typeof createRequestRouter>;
