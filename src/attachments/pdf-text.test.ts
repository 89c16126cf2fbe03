import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import '../../tests/unit/promise-with-resolvers.ts';
import { extractPdfText } from './pdf-text.ts';

const fixture = (file: string) => new Uint8Array(readFileSync(new URL(`../../tests/fixtures/${file}`, import.meta.url)));

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

  it('refuses a PDF with no text layer, as a scan is, naming it', async () => {
    const blank = new TextDecoder().decode(fixture('two-pages.pdf')).replace(/\((Pausepoint reads the text of this PDF\.|Page two, line one\.|Line two\.)\)/g, (m) => `(${' '.repeat(m.length - 2)})`);
    await expect(extractPdfText('scan.pdf', new TextEncoder().encode(blank))).rejects.toThrow(
      '“scan.pdf” has no text to read (a scanned PDF has only pictures of its pages): attach its pages as images instead.',
    );
  });
});
