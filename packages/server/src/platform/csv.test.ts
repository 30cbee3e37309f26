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

  it('neutralise a formula behind leading spaces or invisible characters, at the start and after a line break', () => {
    const hidden: Record<string, string> = {
      space: ' ',
      spaces: '   ',
      nbsp: '\u00A0',
      'narrow nbsp': '\u202F',
      'ideographic space': '\u3000',
      'em space': '\u2003',
      'zero-width space': '\u200B',
      'zero-width non-joiner': '\u200C',
      'zero-width joiner': '\u200D',
      'word joiner': '\u2060',
      BOM: '\uFEFF',
      'left-to-right mark': '\u200E',
      'right-to-left override': '\u202E',
      'soft hyphen': '\u00AD',
      'combining grapheme joiner': '\u034F',
      'Hangul filler': '\u3164',
      'Mongolian vowel separator': '\u180E',
      'vertical tab': '\v',
      'form feed': '\f',
      mixed: ' \u200B\uFEFF\u00A0 ',
    };
    for (const [name, prefix] of Object.entries(hidden)) {
      for (const c of ['=', '+', '-', '@', '\uFF1D']) {
        expect(textCell(`${prefix}${c}1+1`), `${name} then ${c}`).toBe(`'${prefix}${c}1+1`);
        expect(textCell(`ok\n${prefix}${c}1+1`), `a line break, ${name} then ${c}`).toBe(`ok\n'${prefix}${c}1+1`);
      }
    }
    // Text that only starts with a space or an invisible character stays as it was.
    expect(textCell(' hello')).toBe(' hello');
    expect(textCell('\u200Bhello = world')).toBe('\u200Bhello = world');
    expect(textCell('\u00A0')).toBe('\u00A0');
    // A line break is not skipped: the line after it is quoted on its own.
    expect(textCell(' \n =1')).toBe(" \n' =1");
    expect(textCell('\u200B\n\u200B@x')).toBe("\u200B\n'\u200B@x");
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
