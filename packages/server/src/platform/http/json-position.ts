import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';

const REASONS: Partial<Record<string, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'a number is malformed',
  PropertyNameExpected: 'a property name in double quotes is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon is expected',
  CommaExpected: 'a comma is expected',
  CloseBraceExpected: 'a closing } is expected',
  CloseBracketExpected: 'a closing ] is expected',
  EndOfFileExpected: 'the body goes on after the JSON value',
  InvalidCommentToken: 'JSON has no comments',
  UnexpectedEndOfComment: 'JSON has no comments',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut short',
  InvalidUnicode: 'a \\u escape is malformed',
  InvalidEscapeCharacter: 'a backslash escape is not valid',
  InvalidCharacter: 'a control character in a string must be escaped',
};

/**
 * Where a JSON text that JSON.parse refused goes wrong, as "line L, column C (position P): why".
 * V8 names the position only for some errors, so jsonc-parser (comments off, no trailing commas:
 * strict JSON) scans it; called only on the error path. Undefined when it finds nothing to say.
 */
export function jsonErrorPosition(text: string): string | undefined {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first === undefined) return undefined;
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = first.offset - before.lastIndexOf('\n');
  const code = printParseErrorCode(first.error);
  return `line ${line}, column ${column} (position ${first.offset}): ${REASONS[code] ?? code}`;
}
