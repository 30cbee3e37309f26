import type { Deps } from '../../platform/deps.ts';

/** How long a customer's token version is trusted without reading it again. */
export const TOKEN_VERSION_TTL_MS = 2_000;
const TOKEN_VERSION_CACHE_MAX = 50_000;

/**
 * Customers' token versions, read once per TOKEN_VERSION_TTL_MS instead of on every request (a
 * payment's three customer requests read it three times). A password change or reset forgets the
 * customer's at once in this process and, through a broadcast, in the others; the TTL bounds a
 * broadcast that was missed.
 */
export function createVersionCache(deps: Pick<Deps, 'clock' | 'wakeups'>, read: (userId: string) => Promise<number | undefined>) {
  const entries = new Map<string, { version: number | undefined; until: number }>();
  deps.wakeups?.subscribe('user_tokens', (message) => ('reset' in message ? entries.clear() : entries.delete(message.payload)));
  return {
    async current(userId: string): Promise<number | undefined> {
      const now = deps.clock.now().getTime();
      const hit = entries.get(userId);
      if (hit && hit.until > now) return hit.version;
      const version = await read(userId);
      entries.delete(userId);
      if (entries.size >= TOKEN_VERSION_CACHE_MAX) entries.delete(entries.keys().next().value as string);
      entries.set(userId, { version, until: now + TOKEN_VERSION_TTL_MS });
      return version;
    },
    /** After the commit that raised the version. */
    async changed(userId: string): Promise<void> {
      entries.delete(userId);
      await deps.wakeups?.broadcast('user_tokens', userId);
    },
  };
}

export type VersionCache = ReturnType<typeof createVersionCache>;
