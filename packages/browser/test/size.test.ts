import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations
import { bundle } from '../scripts/bundle.mjs';

/** The budget: the whole client, minified and gzipped, stays under 3 KiB. */
const BUDGET_GZIP_BYTES = 3 * 1024;

describe('bundle', () => {
  it(`is small: under ${BUDGET_GZIP_BYTES} bytes min+gzip, with no runtime dependency`, async () => {
    const { code, gzipped } = (await bundle()) as { code: Uint8Array; gzipped: number };
    expect(gzipped).toBeLessThan(BUDGET_GZIP_BYTES);
    const text = new TextDecoder().decode(code);
    expect(text).not.toMatch(/\bimport\s*[{(*"']/);
    // The client never touches storage or cookies.
    expect(text).not.toMatch(/localStorage|sessionStorage|document\.cookie|indexedDB/);
  });
});
