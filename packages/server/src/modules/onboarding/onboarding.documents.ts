import jpeg from 'jpeg-js';
import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFObject, PDFStream } from 'pdf-lib';
import { PNG } from 'pngjs';
import { ApiError } from '../../platform/errors.ts';
import type { DocumentType } from './onboarding.repository.ts';

/** The owner's identity document: at most 5 MB. */
export const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;
/**
 * What the upload route reads before refusing (above it, 413 before any work): a little more than
 * the document's limit, so a document just too large gets the 400 that names the limit.
 */
export const DOCUMENT_BODY_LIMIT = DOCUMENT_MAX_BYTES + 1024 * 1024;
/** An image larger than this is refused before it is decoded: a small file can inflate to gigabytes. */
const IMAGE_MAX_PIXELS = 50_000_000;

const SIGNATURES: { type: DocumentType; bytes: number[] }[] = [
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
];

/**
 * HTML that a browser or a viewer could run, anywhere in the file: a polyglot (a valid header,
 * then a page). Only tags of four letters or more, each followed by what ends a tag name, so the
 * chance of meeting one in a real file's compressed bytes stays below one in a hundred thousand.
 */
const MARKUP = /<(?:!doctype|html|head|body|script|iframe|object|embed)[\s>/]/i;

/** The type the content's first bytes show, whatever the request says. */
export function sniffDocumentType(bytes: Buffer): DocumentType | undefined {
  return SIGNATURES.find((s) => bytes.length >= s.bytes.length && s.bytes.every((b, i) => bytes[i] === b))?.type;
}

/**
 * The document's type if it is a PDF, JPEG or PNG of at most 5 MB whose content is what its
 * Content-Type says and is whole: a PDF parses (pdf-lib) with a page and ends at its `%%EOF`, an
 * image decodes (pngjs, jpeg-js), and none carries HTML or, for a PDF, scripts; else 400
 * `document_invalid` (nothing is stored).
 */
export async function checkDocument(body: unknown, declared: string | undefined): Promise<DocumentType> {
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw new ApiError('document_invalid', 'Send the file itself as the body, with its Content-Type: application/pdf, image/jpeg or image/png');
  }
  if (body.length > DOCUMENT_MAX_BYTES) throw new ApiError('document_invalid', `The document is larger than 5 MB (${body.length} bytes)`);
  const type = sniffDocumentType(body);
  if (type === undefined) throw new ApiError('document_invalid', 'The document is not a PDF, JPEG or PNG file');
  const said = (declared ?? '').split(';')[0]?.trim().toLowerCase();
  if (said !== type) throw new ApiError('document_invalid', `The content is ${type} but the request says ${said || 'nothing'}: send the file's own type`);
  if (MARKUP.test(body.toString('latin1'))) throw new ApiError('document_invalid', `The ${NAMES[type]} file also holds HTML: send the document alone`);
  await READERS[type](body);
  return type;
}

const NAMES: Record<DocumentType, string> = { 'application/pdf': 'PDF', 'image/jpeg': 'JPEG', 'image/png': 'PNG' };

function unreadable(type: DocumentType, why?: string): ApiError {
  return new ApiError('document_invalid', `The ${NAMES[type]} file cannot be read${why ? ` (${why})` : ''}: export it again and send that file`);
}

/** Each type's check that the whole file is what its first bytes say; throws `document_invalid`. */
const READERS: Record<DocumentType, (bytes: Buffer) => Promise<void>> = {
  async 'application/pdf'(bytes) {
    // Data after the last %%EOF is another file riding along (a ZIP, a page): no writer puts it there.
    if (!/%%EOF[\s\0]*$/.test(bytes.subarray(-1024).toString('latin1'))) throw unreadable('application/pdf', 'something follows its end');
    let doc: PDFDocument;
    let pages: number;
    try {
      // Owner-password PDFs (print or copy restrictions) still open in a viewer: their structure is read as is.
      doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: true });
      pages = doc.getPageCount();
    } catch {
      throw unreadable('application/pdf');
    }
    if (pages === 0) throw unreadable('application/pdf', 'it has no page');
    // An identity document needs neither JavaScript nor an action that starts a program.
    for (const [, object] of doc.context.enumerateIndirectObjects()) {
      if (runsSomething(object)) throw new ApiError('document_invalid', 'The PDF file runs scripts or programs: print it to a new PDF and send that file');
    }
  },
  async 'image/png'(bytes) {
    // IHDR's width and height, read before decoding so a small file that inflates to gigabytes is refused first.
    if (bytes.length >= 24 && bytes.readUInt32BE(16) * bytes.readUInt32BE(20) > IMAGE_MAX_PIXELS) throw unreadable('image/png', 'more than 50 megapixels');
    try {
      // pngjs checks every chunk's CRC, inflates the image and refuses anything after IEND.
      PNG.sync.read(bytes);
    } catch {
      throw unreadable('image/png');
    }
  },
  async 'image/jpeg'(bytes) {
    try {
      jpeg.decode(bytes, { maxResolutionInMP: IMAGE_MAX_PIXELS / 1_000_000, maxMemoryUsageInMB: 512, useTArray: true });
    } catch {
      throw unreadable('image/jpeg');
    }
  },
};

const JS = PDFName.of('JS');
const ACTION = PDFName.of('S');
const RUNNING = new Set([PDFName.of('JavaScript'), PDFName.of('Launch')]);

/** Whether a PDF object, or a dictionary or array inside it, is a JavaScript or launch action. */
function runsSomething(object: PDFObject, depth = 0): boolean {
  if (depth > 32) return false;
  if (object instanceof PDFStream) return runsSomething(object.dict, depth + 1);
  if (object instanceof PDFArray) return object.asArray().some((o) => runsSomething(o, depth + 1));
  if (!(object instanceof PDFDict)) return false;
  const action = object.get(ACTION);
  if (object.has(JS) || (action instanceof PDFName && RUNNING.has(action))) return true;
  return object.values().some((o) => runsSomething(o, depth + 1));
}
