import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvStream, textCell } from './csv.ts';

async function render(rows: unknown[][]): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of csvStream(['a', 'b'], async (write) => {
    for (const row of rows) await write(row);
  }))
    chunks.push(Buffer.from(chunk as string));
  return Buffer.concat(chunks).toString('utf8');
}

describe('CSV exports', () => {
  it('neutralise a formula at the start of a cell and after every line break, full-width forms too', () => {
    for (const c of ['=', '+', '-', '@', '\t', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']) expect(textCell(`${c}1+1`), c).toBe(`'${c}1+1`);
    expect(textCell('\n=1+1')).toBe("\n'=1+1");
    expect(textCell('ok\r\n+SUM(A1)\r@x\n\uFF1D1')).toBe("ok\r\n'+SUM(A1)\r'@x\n'\uFF1D1");
    expect(textCell('a = b, c - d')).toBe('a = b, c - d');
    expect(textCell('')).toBe('');
  });

  it('quote every field holding CR, LF, a quote or a comma (RFC 4180), so no field starts a row', async () => {
    const text = await render([
      ['\n=1+1', 'x'],
      ['a\rb', 'c,d'],
      ['say "hi"', 'plain'],
    ]);
    expect(text).toBe('a,b\r\n"\n=1+1",x\r\n"a\rb","c,d"\r\n"say ""hi""",plain\r\n');
    expect(parse(text, { columns: true })).toEqual([
      { a: '\n=1+1', b: 'x' },
      { a: 'a\rb', b: 'c,d' },
      { a: 'say "hi"', b: 'plain' },
    ]);
  });
});
