import { ApiError } from '../../platform/errors.ts';
import type { DocumentType } from './onboarding.repository.ts';

/** The owner's identity document: at most 5 MB. */
export const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;
/**
 * What the upload route reads before refusing (above it, 413 before any work): a little more than
 * the document's limit, so a document just too large gets the 400 that names the limit.
 */
export const DOCUMENT_BODY_LIMIT = DOCUMENT_MAX_BYTES + 1024 * 1024;

const SIGNATURES: { type: DocumentType; bytes: number[] }[] = [
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
];

/** The type the content's first bytes show, whatever the request says. */
export function sniffDocumentType(bytes: Buffer): DocumentType | undefined {
  return SIGNATURES.find((s) => bytes.length >= s.bytes.length && s.bytes.every((b, i) => bytes[i] === b))?.type;
}

/**
 * The document's type if it is a PDF, JPEG or PNG of at most 5 MB whose content is what its
 * Content-Type says; else 400 `document_invalid` (nothing is stored).
 */
export function checkDocument(body: unknown, declared: string | undefined): DocumentType {
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw new ApiError('document_invalid', 'Send the file itself as the body, with its Content-Type: application/pdf, image/jpeg or image/png');
  }
  if (body.length > DOCUMENT_MAX_BYTES) throw new ApiError('document_invalid', `The document is larger than 5 MB (${body.length} bytes)`);
  const type = sniffDocumentType(body);
  if (type === undefined) throw new ApiError('document_invalid', 'The document is not a PDF, JPEG or PNG file');
  const said = (declared ?? '').split(';')[0]?.trim().toLowerCase();
  if (said !== type) throw new ApiError('document_invalid', `The content is ${type} but the request says ${said || 'nothing'}: send the file's own type`);
  return type;
}
