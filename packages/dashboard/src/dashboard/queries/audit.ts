import { usePages } from '../paging.tsx';
import type { AuditEntry } from '../types.ts';
import { listPage } from './client.ts';
import { keys } from './keys.ts';

/** Who did what, newest first, 50 a page; `action` ('' for all) filters. */
export function useAuditLog(action: string) {
  const query = new URLSearchParams({ limit: '50', ...(action ? { action } : {}) }).toString();
  return usePages(keys.audit(action), (after) => listPage<AuditEntry>('/audit-log', query, after));
}
