import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { HTML, JPEG, PDF, PNG } from '../../../test/documents.support.ts';
import { ApiError } from '../../platform/errors.ts';
import { checkDocument } from './onboarding.documents.ts';

async function refusal(bytes: Buffer, type: string): Promise<string> {
  const err = await checkDocument(bytes, type).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `${type} accepted`).toBeInstanceOf(ApiError);
  expect((err as ApiError).code).toBe('document_invalid');
  return (err as ApiError).message;
}

describe('the identity document check', () => {
  it('accepts a real PDF, PNG and JPEG', async () => {
    expect(await checkDocument(PDF, 'application/pdf')).toBe('application/pdf');
    expect(await checkDocument(PNG, 'image/png')).toBe('image/png');
    expect(await checkDocument(JPEG, 'image/jpeg; charset=binary')).toBe('image/jpeg');
    // Phones append their own data after a JPEG's end (motion photos, maker trailers): still a photo.
    expect(await checkDocument(Buffer.concat([JPEG, Buffer.from('SEFHmotion-photo-trailer')]), 'image/jpeg')).toBe('image/jpeg');
  });

  it('refuses a PDF polyglot: a header then HTML, HTML after %%EOF or inside, another file after %%EOF', async () => {
    expect(await refusal(Buffer.concat([Buffer.from('%PDF-1.7\n'), HTML]), 'application/pdf')).toMatch(/HTML/);
    expect(await refusal(Buffer.concat([PDF, HTML]), 'application/pdf')).toMatch(/HTML/);
    expect(await refusal(Buffer.concat([PDF.subarray(0, 15), HTML, PDF.subarray(15)]), 'application/pdf')).toMatch(/HTML/);
    expect(await refusal(Buffer.concat([PDF, Buffer.from('PK\x03\x04 a zip rides along')]), 'application/pdf')).toMatch(/follows its end/);
    expect(await refusal(Buffer.from('%PDF-1.7\nnothing a reader can use\n%%EOF\n'), 'application/pdf')).toMatch(/cannot be read/);
  });

  it('refuses a PDF that runs JavaScript, and one with no page', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    const js = doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') });
    doc.catalog.set(PDFName.of('OpenAction'), doc.context.register(js));
    expect(await refusal(Buffer.from(await doc.save()), 'application/pdf')).toMatch(/scripts/);
    const empty = Buffer.from(await (await PDFDocument.create()).save({ addDefaultPage: false }));
    expect(await refusal(empty, 'application/pdf')).toMatch(/no page/);
  });

  it('refuses a PNG polyglot: HTML after IEND, a header then HTML; a broken PNG', async () => {
    expect(await refusal(Buffer.concat([PNG, HTML]), 'image/png')).toMatch(/HTML/);
    expect(await refusal(Buffer.concat([PNG.subarray(0, 8), HTML]), 'image/png')).toMatch(/HTML/);
    expect(await refusal(Buffer.concat([PNG, Buffer.from('trailing bytes')]), 'image/png')).toMatch(/cannot be read/);
    const corrupt = Buffer.from(PNG);
    corrupt.writeUInt8(corrupt.readUInt8(corrupt.length - 20) ^ 0xff, corrupt.length - 20); // inside IDAT: its CRC no longer matches
    expect(await refusal(corrupt, 'image/png')).toMatch(/cannot be read/);
    expect(await refusal(Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(500, 1)]), 'image/png')).toMatch(/cannot be read/);
  });

  it('refuses a PNG that would inflate past 50 megapixels before decoding it', async () => {
    const huge = Buffer.from(PNG);
    huge.writeUInt32BE(10_000, 16);
    huge.writeUInt32BE(10_000, 20);
    expect(await refusal(huge, 'image/png')).toMatch(/megapixels/);
  });

  it('refuses a JPEG polyglot and a JPEG that does not decode', async () => {
    expect(await refusal(Buffer.concat([JPEG, HTML]), 'image/jpeg')).toMatch(/HTML/);
    expect(await refusal(Buffer.concat([JPEG.subarray(0, 3), Buffer.from('not an image')]), 'image/jpeg')).toMatch(/cannot be read/);
  });
});
