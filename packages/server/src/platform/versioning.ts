/** API versions this server speaks (docs/spec/request-rules.md), oldest first. */
export const API_VERSIONS = ['2026-11-01'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const LATEST_API_VERSION: ApiVersion = '2026-11-01';

export function isApiVersion(v: string): v is ApiVersion {
  return (API_VERSIONS as readonly string[]).includes(v);
}
