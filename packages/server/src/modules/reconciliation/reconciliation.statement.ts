import { CsvError, parse } from 'csv-parse/sync';
import { ApiError } from '../../platform/errors.ts';
import type { ConnectorKind, ListedRequest } from '../connectors/index.ts';

/**
 * A provider's statement, as a CSV file (`caisse reconcile --statement`): the list of its
 * requests that MTN's API cannot give (docs/decisions/0021-reconciliation.md). One header row
 * naming at least these columns, in any order and case; other columns are ignored, so a
 * provider's export only needs its columns renamed:
 *
 *   reference   our reference (X-Reference-Id, a UUID)
 *   kind        collection | disbursement
 *   status      SUCCESSFUL | FAILED | PENDING
 *   amount      decimal, major units ("5000", "12.50")
 *   currency    ISO 4217 ("XAF")
 *   created_at  ISO 8601 time with its offset ("2026-11-01T10:00:00Z")
 *   external_id optional: our id of the object
 */

export const STATEMENT_COLUMNS = ['reference', 'kind', 'status', 'amount', 'currency', 'created_at'] as const;

const KINDS: readonly ConnectorKind[] = ['collection', 'disbursement'];
const STATUSES = ['PENDING', 'SUCCESSFUL', 'FAILED'] as const;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function invalid(message: string): ApiError {
  return new ApiError('validation_error', `statement: ${message}`, { param: 'statement' });
}

export function parseStatement(text: string): ListedRequest[] {
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    // `info: true` makes each row {record, info}; the library's types do not say so.
    rows = parse(text, { bom: true, skip_empty_lines: true, trim: true, info: true }) as unknown as typeof rows;
  } catch (err) {
    if (err instanceof CsvError) throw invalid(err.message);
    throw err;
  }
  const [header, ...lines] = rows;
  if (header === undefined) throw invalid('the file is empty: it needs at least the header row');
  const names = header.record.map((h) => h.toLowerCase());
  const missing = STATEMENT_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length > 0) throw invalid(`missing column(s) ${missing.join(', ')}; expected ${STATEMENT_COLUMNS.join(', ')}`);
  const column = (record: string[], name: string) => record[names.indexOf(name)] ?? '';
  return lines.map(({ record, info }) => {
    const at = `line ${info.lines}`;
    const [reference, rawKind, rawStatus, amount, rawCurrency, created] = STATEMENT_COLUMNS.map((c) => column(record, c)) as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (reference === '') throw invalid(`${at}: the reference is empty`);
    const kind = rawKind.toLowerCase() as ConnectorKind;
    if (!KINDS.includes(kind)) throw invalid(`${at}: kind "${rawKind}" is not ${KINDS.join(' or ')}`);
    const status = rawStatus.toUpperCase() as (typeof STATUSES)[number];
    if (!STATUSES.includes(status)) throw invalid(`${at}: status "${rawStatus}" is not ${STATUSES.join(', ')}`);
    if (!/^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(amount)) throw invalid(`${at}: amount "${amount}" is not a decimal amount`);
    const currency = rawCurrency.toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) throw invalid(`${at}: currency "${rawCurrency}" is not a three-letter code`);
    const createdAt = new Date(created);
    if (!ISO_TIME.test(created) || Number.isNaN(createdAt.getTime())) throw invalid(`${at}: created_at "${created}" is not an ISO 8601 time with an offset`);
    const externalId = names.includes('external_id') ? column(record, 'external_id') : '';
    return { kind, reference: reference.toLowerCase(), status, amount, currency, createdAt, ...(externalId !== '' ? { externalId } : {}) };
  });
}
