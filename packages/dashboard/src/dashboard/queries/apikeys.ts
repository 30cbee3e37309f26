import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import type { Answer, ApiKey, CreatedApiKey, KeyPermissions, List, Mode } from '../types.ts';
import { get, modePath, useChange } from './client.ts';
import { keys } from './keys.ts';

/** The API keys of one mode, every state (active, rolled, revoked). */
export function useApiKeys(mode: Mode) {
  return useQuery({ queryKey: keys.keys(mode), queryFn: () => get<List<ApiKey>>(modePath(mode, 'keys')) });
}

/** A new key; a live secret one needs the user's authenticator `code`. */
export function useCreateApiKey(mode: Mode) {
  return useChange(
    (body: { name: string; kind: ApiKey['kind']; permissions?: KeyPermissions; code?: string }) => api<CreatedApiKey>('POST', modePath(mode, 'keys'), body),
    () => [keys.keys(mode)],
  );
}

export function useRevokeApiKey(mode: Mode) {
  return useChange(
    (id: string) => api('POST', `${modePath(mode, 'keys', id)}/revoke`, {}),
    () => [keys.keys(mode)],
  );
}

/** A new key in place of `id`, which still works for `graceSeconds`. */
export function useRollApiKey(mode: Mode) {
  return useChange(
    ({ id, ...body }: { id: string; graceSeconds: number; code?: string }) =>
      api<Answer<'/dashboard/api/{mode}/keys/{id}/roll', 'post'>>('POST', `${modePath(mode, 'keys', id)}/roll`, body),
    () => [keys.keys(mode)],
  );
}

/** The browser origins an API key may be used from (empty: any). */
export function useSetAllowedOrigins(mode: Mode) {
  return useChange(
    ({ id, allowedOrigins }: { id: string; allowedOrigins: string[] }) =>
      api<Answer<'/dashboard/api/{mode}/keys/{id}/allowed-origins', 'post'>>('POST', `${modePath(mode, 'keys', id)}/allowed-origins`, { allowedOrigins }),
    () => [keys.keys(mode)],
  );
}
