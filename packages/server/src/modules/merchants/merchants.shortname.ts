import { ApiError } from '../../platform/errors.ts';

/**
 * The payer-facing short name (docs/decisions/0074-payer-facing-short-name.md): what a provider
 * that takes a name per request shows the payer. The strictest provider's rule holds for all:
 * 4 to 22 ASCII letters, digits and spaces.
 */
export const SHORT_NAME_MIN = 4;
export const SHORT_NAME_MAX = 22;
/** When neither the trade name nor the merchant's name gives a usable one. */
export const SHORT_NAME_FALLBACK = 'Caisse';

const VALID = /^[A-Za-z0-9 ]+$/;

/** A name as the merchant typed it: spaces around it dropped, else refused as it is (400 `short_name_invalid`). */
export function checkShortName(value: string, param = 'shortName'): string {
  const name = value.trim();
  if (name.length < SHORT_NAME_MIN || name.length > SHORT_NAME_MAX || !VALID.test(name)) {
    throw new ApiError(
      'short_name_invalid',
      `The short name must be ${SHORT_NAME_MIN} to ${SHORT_NAME_MAX} ASCII letters, digits and spaces (no accents or punctuation); "${name}" is not`,
      { param },
    );
  }
  return name;
}

/**
 * A valid short name made from any text, or undefined when too little is left: accents stripped
 * (é → e), any other character a space, spaces collapsed, cut to 22 at a word where it can be.
 */
export function deriveShortName(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  const ascii = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim();
  let name = ascii;
  if (name.length > SHORT_NAME_MAX) {
    const cut = name.slice(0, SHORT_NAME_MAX + 1);
    const space = cut.lastIndexOf(' ');
    name = (space >= SHORT_NAME_MIN ? cut.slice(0, space) : cut.slice(0, SHORT_NAME_MAX)).trim();
  }
  return name.length >= SHORT_NAME_MIN ? name : undefined;
}

/** The name sent: the merchant's choice, else the trade name's, else the merchant's name's, else "Caisse". */
export function effectiveShortName(m: { short_name: string | null; short_name_default: string | null; name: string }): string {
  return m.short_name ?? m.short_name_default ?? deriveShortName(m.name) ?? SHORT_NAME_FALLBACK;
}
