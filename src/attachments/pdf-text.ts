import type * as Pdfjs from 'pdfjs-dist';
import type { TextContent } from 'pdfjs-dist/types/src/display/api';
import { MAX_FILE_TEXT_CHARS } from '../engine/records/attachment-limits.ts';
import { AttachmentReadError } from './attachment-read-error.ts';
import { SerialWorker } from './serial-worker.ts';

/** How long one PDF may take to read before it is refused and its worker stopped. */
export const PDF_READ_MS = 30_000;
/** The most pages a PDF may have: more is refused before any page is read. */
export const MAX_PDF_PAGES = 500;

/**
 * A PDF's text, page by page (a blank line between pages, a line break where pdf.js
 * says a line ends), read once when the file is attached. Loaded on demand with
 * pdf.js (read-attached-file.ts), so none of it is on the page's start path.
 * Refused with a message naming the file: a PDF that does not parse, one with a
 * password, one with no text layer (a scan), one longer than a text file may be,
 * one with more than MAX_PDF_PAGES pages, and one that takes longer than
 * PDF_READ_MS to read — a file made to stall pdf.js: its worker is stopped and
 * the next PDF gets a new one (SerialWorker), so it stalls no other file.
 */
export async function extractPdfText(name: string, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const pdfjs = await import('pdfjs-dist');
  const overtime = () =>
    new AttachmentReadError(
      name,
      `“${name}” took longer than ${PDF_READ_MS / 1000} seconds to read, so reading it was stopped: it may be damaged, or made to stall a reader. Attach its text instead.`,
    );
  return pdfReader(pdfjs).run((worker) => readText(pdfjs, worker.pdf, name, bytes), PDF_READ_MS, overtime);
}

async function readText(pdfjs: typeof Pdfjs, worker: Pdfjs.PDFWorker, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  // pdf.js takes ownership of (transfers) the buffer it is given: the caller keeps its bytes for the stored blob.
  // The CSP has no 'unsafe-eval': pdf.js 6 has no eval path (nor an isEvalSupported option), which the e2e
  // test checks under the policy. Text needs no glyph shapes: no font faces, no standard fonts' data fetched
  // (its warning is quieted). Nothing is drawn, so no renderer worker either.
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    worker,
    disableFontFace: true,
    disableWorkerRendering: true,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  try {
    const document = await task.promise.catch((error: unknown) => {
      if (error instanceof pdfjs.PasswordException)
        throw new AttachmentReadError(name, `“${name}” is protected by a password, so its text cannot be read: remove the password, or attach its text.`);
      throw new AttachmentReadError(name, `“${name}” could not be read as a PDF: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (document.numPages > MAX_PDF_PAGES)
      throw new AttachmentReadError(name, `“${name}” has ${document.numPages.toLocaleString('en')} pages: a PDF can have at most ${MAX_PDF_PAGES}.`);
    const pages: string[] = [];
    let length = 0;
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const text = pageText(await page.getTextContent());
      page.cleanup();
      pages.push(text);
      length += text.length + 2;
      // Stops reading at the limit rather than parsing the rest of a long document only to refuse it.
      if (length - 2 > MAX_FILE_TEXT_CHARS)
        throw new AttachmentReadError(name, `“${name}” has more than ${MAX_FILE_TEXT_CHARS.toLocaleString('en')} characters of text: a file can have at most ${MAX_FILE_TEXT_CHARS.toLocaleString('en')}.`);
    }
    const text = pages.join('\n\n');
    if (text.trim() === '')
      throw new AttachmentReadError(name, `“${name}” has no text to read (a scanned PDF has only pictures of its pages): attach its pages as images instead.`);
    return text;
  } finally {
    await task.destroy();
  }
}

function pageText(content: TextContent): string {
  let text = '';
  for (const item of content.items) {
    if (!('str' in item)) continue; // marked-content boundaries carry no text
    text += item.str;
    if (item.hasEOL) text += '\n';
  }
  return text.trimEnd();
}

/** A pdf.js worker, and how to stop it for good (a port of ours is not terminated by pdf.js). */
interface PdfWorker {
  pdf: Pdfjs.PDFWorker;
  stop(): void;
}

/**
 * One pdf.js worker reads PDFs, one at a time (files attached together wait their turn), each within
 * PDF_READ_MS; it is ours, handed to each getDocument, so destroying one document's task does not take it
 * from the next. In the browser pdf.js parses in its own module worker, bundled by Vite as a same-origin
 * script (the CSP's worker-src 'self'; no blob: worker). Node (the unit tests) has no Worker: pdf.js then
 * parses on the calling thread, which no deadline can interrupt.
 */
let reader: SerialWorker<PdfWorker> | undefined;

function pdfReader(pdfjs: typeof Pdfjs): SerialWorker<PdfWorker> {
  reader ??= new SerialWorker(
    async () => {
      if (typeof Worker === 'undefined') {
        const pdf = pdfjs.PDFWorker.create({ name: 'pdf.js' });
        return { pdf, stop: () => pdf.destroy() };
      }
      const { startPdfWorker } = await import('./pdf-worker.ts');
      const port = startPdfWorker();
      const pdf = pdfjs.PDFWorker.create({ name: 'pdf.js', port });
      return {
        pdf,
        stop: () => {
          pdf.destroy();
          port.terminate();
        },
      };
    },
    (worker) => worker.stop(),
  );
  return reader;
}
