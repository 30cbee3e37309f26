/**
 * Real identity documents for the upload tests, made here so each is a file its format's reader
 * accepts: a one-page PDF, a PNG and a JPEG of a few pixels.
 */
import jpeg from 'jpeg-js';
import { PDFDocument } from 'pdf-lib';
import { PNG as PngImage } from 'pngjs';

async function onePagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 100]).drawText('Awa Ndiaye', { x: 10, y: 50 });
  return Buffer.from(await doc.save());
}

function image(width: number, height: number): { width: number; height: number; data: Buffer } {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < data.length; i++) data[i] = (i * 37) % 256;
  return { width, height, data };
}

export const PDF = await onePagePdf();
export const PNG: Buffer = PngImage.sync.write(Object.assign(new PngImage({ width: 8, height: 8 }), { data: image(8, 8).data }));
export const JPEG = Buffer.from(jpeg.encode(image(16, 16), 80).data);
/** What a polyglot carries after (or inside) a valid file. */
export const HTML = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>\n');
