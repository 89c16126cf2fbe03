import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import '../../tests/unit/promise-with-resolvers.ts';
import { MAX_FILE_TEXT_CHARS } from '../engine/records/attachment-limits.ts';
import { extractPdfText, MAX_PDF_PAGES } from './pdf-text.ts';

const fixture = (file: string) => new Uint8Array(readFileSync(new URL(`../../tests/fixtures/${file}`, import.meta.url)));

/** A PDF of `objects` (numbered from 1, the first the catalog), with its cross-reference table right. */
function pdfOf(objects: string[]): Uint8Array<ArrayBuffer> {
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

/** A PDF of `count` blank pages. */
function blankPagesPdf(count: number): Uint8Array<ArrayBuffer> {
  const kids = Array.from({ length: count }, (_, i) => `${i + 3} 0 R`).join(' ');
  const page = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>';
  return pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`, ...Array.from({ length: count }, () => page)]);
}

/**
 * A one-page PDF showing each line in tiny Helvetica on the largest page PDF allows (pdf.js leaves out text
 * beyond the page's edge), with its cross-reference table right.
 */
function onePagePdf(...lines: string[]): Uint8Array<ArrayBuffer> {
  const content = `BT /F1 0.1 Tf 0.1 TL 1 14000 Td ${lines.map((line) => `(${line}) Tj T*`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  return pdfOf(objects);
}

describe('extractPdfText', () => {
  it('takes each page’s text, a line break where a line ends and a blank line between pages', async () => {
    const bytes = fixture('two-pages.pdf');
    expect(await extractPdfText('two-pages.pdf', bytes)).toBe('Pausepoint reads the text of this PDF.\n\nPage two, line one.\nLine two.');
    // The caller's bytes are still whole (pdf.js is handed a copy it may transfer).
    expect(bytes.length).toBe(936);
  });

  it('refuses a file that is not a PDF, naming it', async () => {
    await expect(extractPdfText('broken.pdf', new TextEncoder().encode('%PDF-1.4\nthis is not a PDF at all'))).rejects.toThrow(/^“broken\.pdf” could not be read as a PDF: /);
  });

  it('refuses a PDF that needs a password, naming it', async () => {
    // two-pages.pdf encrypted by qpdf (AES-256, user password “secret”).
    await expect(extractPdfText('password.pdf', fixture('password.pdf'))).rejects.toThrow(
      '“password.pdf” is protected by a password, so its text cannot be read: remove the password, or attach its text.',
    );
  });

  it('keeps a PDF of exactly the limit, and refuses a longer one as a text file is refused', async () => {
    const half = 'x'.repeat(MAX_FILE_TEXT_CHARS / 2);
    expect(await extractPdfText('full.pdf', onePagePdf(half.slice(1), half))).toBe(`${half.slice(1)}\n${half}`);
    await expect(extractPdfText('long.pdf', onePagePdf(half, half))).rejects.toThrow(
      '“long.pdf” has more than 200,000 characters of text: a file can have at most 200,000.',
    );
  });

  it('refuses a PDF of more than MAX_PDF_PAGES pages before reading any, naming it (issue 32, point 4)', async () => {
    await expect(extractPdfText('endless.pdf', blankPagesPdf(MAX_PDF_PAGES + 1))).rejects.toThrow(`“endless.pdf” has 501 pages: a PDF can have at most ${MAX_PDF_PAGES}.`);
    // At the bound it is read (and refused only for having no text).
    await expect(extractPdfText('bound.pdf', blankPagesPdf(MAX_PDF_PAGES))).rejects.toThrow(/^“bound\.pdf” has no text to read/);
    // The reader goes on with the next PDF.
    expect(await extractPdfText('two-pages.pdf', fixture('two-pages.pdf'))).toContain('Page two, line one.');
  });

  it('refuses a PDF with no text layer, as a scan is, naming it', async () => {
    await expect(extractPdfText('scan.pdf', onePagePdf('   '))).rejects.toThrow(
      '“scan.pdf” has no text to read (a scanned PDF has only pictures of its pages): attach its pages as images instead.',
    );
  });
});
