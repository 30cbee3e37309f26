import { readFileSync } from 'node:fs';
import type { RunMode } from './config.ts';

/** The server package's version; package.json is one level above src/ and dist/ alike. */
export function serverVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

export interface BannerInfo {
  version: string;
  mode: RunMode;
  /** Where a person on this machine reaches the server, e.g. http://127.0.0.1:8080. */
  url: string;
  /** The embedded database's directory; undefined on PostgreSQL. */
  dataDir: string | undefined;
  /** On PostgreSQL: the DATABASE_URL this server uses, so the commands it prints reach the same database. */
  databaseUrl?: string;
  /** The development merchant this start created on an empty database, with its secrets (shown this once). */
  created?: { merchantId: string; test: { apiKey: string; secretKey: string }; dashboard: { email: string; password: string } };
  /** On a later start: the first merchants, to say how to get keys again. */
  merchants: { id: string; name: string; email: string | null }[];
}

/**
 * What `npm start` prints once the server answers: where the API, its reference, the dashboard
 * and the operator console are, where the data lives, and the keys — to paste as environment
 * variables, on the start that made them; on later starts, the command that makes new ones (keys
 * are stored only as hashes, so they cannot be shown again).
 */
/**
 * The prefix that makes a printed command reach this server's PostgreSQL from another shell (the
 * CLI opens the embedded database otherwise); its password shown as `…`, never in clear.
 */
function withDatabase(info: BannerInfo): string {
  if (info.databaseUrl === undefined) return '';
  // user:password@ → user:…@ (the URL class would percent-encode the ellipsis).
  return `DATABASE_URL='${info.databaseUrl.replace(/(\/\/[^:/@]*:)[^@/]*@/, '$1…@')}' `;
}

export function formatBanner(info: BannerInfo): string {
  const database = info.dataDir === undefined ? 'PostgreSQL (DATABASE_URL)' : 'embedded database';
  const lines = [
    '',
    `Caisse ${info.version} is ready (${info.mode} mode, ${database})`,
    `  API             ${info.url}   reference: ${info.url}/docs`,
    `  Dashboard       ${info.url}/dashboard`,
    `  Operators       ${info.url}/operator   (npx caisse operators create --email … makes one)`,
  ];
  if (info.dataDir !== undefined) lines.push(`  Data directory  ${info.dataDir}`);
  const first = info.merchants[0];
  if (info.created !== undefined) {
    const c = info.created;
    lines.push(
      `  Sign in as      ${c.dashboard.email} / ${c.dashboard.password}`,
      `  Merchant        ${c.merchantId} (created now: the database was empty)`,
      '',
      'Test keys of that merchant, shown this once (they are stored only as hashes). Paste into your shell:',
      '',
      `  export CAISSE_API_KEY=${c.test.apiKey} CAISSE_SECRET_KEY=${c.test.secretKey}`,
      '',
      'Next: docs/quickstart.md takes you to a paid test payment and a verified webhook.',
    );
  } else if (first !== undefined) {
    const more = info.merchants.length > 1 ? ` and ${info.merchants.length - 1} more (npx caisse merchants list)` : '';
    lines.push(
      `  Merchant        ${first.id} ${first.name}${first.email ? ` <${first.email}>` : ''}${more}`,
      '',
      'Keys and the dashboard password were shown when they were made. Lost the keys? While this runs:',
      `  ${withDatabase(info)}npx caisse keys create --merchant ${first.id} --kind both     # prints a new export line`,
    );
  } else {
    lines.push('', `No merchant yet: ${withDatabase(info)}npx caisse merchants create --name "My shop" (prints its keys and dashboard login).`);
  }
  lines.push('');
  return `${lines.join('\n')}\n`;
}
