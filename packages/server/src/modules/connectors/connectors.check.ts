import type { HttpResult } from './connectors.http.ts';

/**
 * What a provider said when it refused a check (`Connector.check`), in its own words: the
 * status, its code and its message as its error body gives them (`message`, `error_description`,
 * `description`: each provider names them its own way), cut to a line. An answer that is not
 * JSON is quoted by its status only: a proxy's HTML page says nothing useful, and no body is
 * ever echoed whole (it could hold anything).
 */
export function providerWords(res: HttpResult): string {
  if (!res.ok) return res.reason;
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    return `HTTP ${res.status}`;
  }
  if (parsed === null || typeof parsed !== 'object') return `HTTP ${res.status}`;
  const o = parsed as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
  const code = text(o.code) ?? text(o.error);
  const words = [text(o.message), text(o.error_description), text(o.description)].filter((w): w is string => w !== undefined && w !== code);
  const said = [code, ...new Set(words)].filter((w) => w !== undefined).join(': ');
  const line = said.replace(/\s+/g, ' ').trim().slice(0, 300);
  return line === '' ? `HTTP ${res.status}` : `HTTP ${res.status} ${line}`;
}
