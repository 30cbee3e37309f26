import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server's CLI, which the browser tests run as users do. */
export const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'bin', 'caisse.js');

/** The PostgreSQL server the browser tests make their databases on. */
export const POSTGRES = process.env.TEST_DATABASE_URL || process.env.CI_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
