import { stringify } from 'csv-stringify';

/**
 * Characters a spreadsheet reads as the start of a formula (OWASP's list), with their full-width
 * forms, which Excel and Numbers also accept, and the line breaks a cell may hold.
 */
const FORMULA_START = /(^|\r\n|\r|\n)([=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/g;

/**
 * Free text written as text, never as a formula: a quote goes before a formula character at the
 * start of the cell and after every line break inside it, since a spreadsheet reads each line of
 * a quoted multi-line cell on its own when the file is pasted or re-imported.
 */
export function textCell(value: string): string {
  return value.replace(FORMULA_START, "$1'$2");
}

/**
 * An RFC 4180 CSV download (header row, CRLF) whose rows `produce` writes, waiting for the
 * reader when it lags, so a long export streams in batches; a failure mid-way ends the stream
 * with that error (the client sees a cut file, never a silent short one).
 */
export function csvStream(columns: string[], produce: (write: (row: unknown[]) => Promise<void>) => Promise<void>): NodeJS.ReadableStream {
  // csv-stringify stops quoting a lone CR or LF once the record delimiter is set; a field holding
  // one unquoted would start a forged row, so every field with CR, LF, a quote or a comma is quoted.
  const csv = stringify({ header: true, record_delimiter: 'windows', quote_record_delimiter: true, columns });
  const write = async (row: unknown[]) => {
    if (!csv.write(row)) await new Promise((resolve) => csv.once('drain', resolve));
  };
  produce(write)
    .then(() => csv.end())
    .catch((err: unknown) => csv.destroy(err as Error));
  return csv;
}
