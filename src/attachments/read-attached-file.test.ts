import { describe, expect, it } from 'vitest';
import { MAX_FILE_TEXT_CHARS } from '../engine/records/attachment-limits.ts';
import { readAttachedFile } from './read-attached-file.ts';
import { sha256Hex } from './sha256.ts';

describe('readAttachedFile', () => {
  it('reads an image’s bytes with its hash and progress, and no text', async () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const progress: number[] = [];
    const read = await readAttachedFile(new File([bytes], 'dot.png', { type: 'image/png' }), { kind: 'image', type: 'image/png' }, (p) => progress.push(p));
    expect(read).toMatchObject({ name: 'dot.png', type: 'image/png', size: 7, kind: 'image', sha256: await sha256Hex(bytes) });
    expect(read.text).toBeUndefined();
    expect(new Uint8Array(await read.blob.arrayBuffer())).toEqual(bytes);
    expect(progress.at(-1)).toBe(1);
  });

  it('takes a text file’s text out once', async () => {
    const read = await readAttachedFile(new File(['# Notes\nä'], 'notes.md'), { kind: 'text', type: 'text/markdown' });
    expect(read.text).toBe('# Notes\nä');
    expect(read.type).toBe('text/markdown');
  });

  it('refuses a text file that is not UTF-8, or longer than the limit, naming it', async () => {
    await expect(readAttachedFile(new File([new Uint8Array([0xff, 0xfe, 0x00, 0xd8])], 'bin.txt'), { kind: 'text', type: 'text/plain' })).rejects.toThrow(
      '“bin.txt” is not UTF-8 text, so it cannot be sent as a text file.',
    );
    await expect(readAttachedFile(new File(['x'.repeat(MAX_FILE_TEXT_CHARS + 1)], 'long.txt'), { kind: 'text', type: 'text/plain' })).rejects.toThrow(
      /^“long\.txt” has 200,001 characters of text: a file can have at most 200,000\.$/,
    );
  });

  it('refuses a PDF with a clear message: no PDF reader runs under the app’s CSP yet', async () => {
    await expect(readAttachedFile(new File(['%PDF-1.4'], 'paper.pdf', { type: 'application/pdf' }), { kind: 'pdf', type: 'application/pdf' })).rejects.toThrow(
      '“paper.pdf” is a PDF, which Pausepoint cannot read yet: copy its text into a text file, or attach its pages as images.',
    );
  });
});
