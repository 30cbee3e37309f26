import { stringify } from 'csv-stringify';

/** CSV cells a spreadsheet would run as a formula are written as text (OWASP's advice). */
export function textCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * An RFC 4180 CSV download (header row, CRLF) whose rows `produce` writes, waiting for the
 * reader when it lags, so a long export streams in batches; a failure mid-way ends the stream
 * with that error (the client sees a cut file, never a silent short one).
 */
export function csvStream(columns: string[], produce: (write: (row: unknown[]) => Promise<void>) => Promise<void>): NodeJS.ReadableStream {
  const csv = stringify({ header: true, record_delimiter: 'windows', columns });
  const write = async (row: unknown[]) => {
    if (!csv.write(row)) await new Promise((resolve) => csv.once('drain', resolve));
  };
  produce(write)
    .then(() => csv.end())
    .catch((err: unknown) => csv.destroy(err as Error));
  return csv;
}
