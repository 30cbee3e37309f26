import { stringify } from 'csv-stringify';

/**
 * A line of a cell a spreadsheet would run as a formula: one that starts with a formula character
 * (OWASP's list, with the full-width forms Excel and Numbers also accept) after any run of what a
 * spreadsheet may skip or a reader not see, line breaks aside: spaces of every kind (NBSP, the ideographic space…),
 * format characters (zero-width space, joiner and non-joiner, BOM, word joiner, bidi marks) and
 * the invisible fillers outside those classes (combining grapheme joiner, Hangul fillers).
 */
const FORMULA_START = /(^|\r\n|\r|\n)(?=[\t\v\f\p{Zs}\p{Zl}\p{Zp}\p{Cf}\u034F\u115F\u1160\u180E\u3164\uFFA0]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/gu;

/**
 * Free text written as text, never as a formula: a quote goes at the start of the cell, and after
 * every line break inside it, when a formula character follows (after any spaces or invisible
 * characters), since a spreadsheet reads each line of a quoted multi-line cell on its own when the
 * file is pasted or re-imported.
 */
export function textCell(value: string): string {
  return value.replace(FORMULA_START, "$1'");
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
