import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import '../../tests/unit/promise-with-resolvers.ts';
import { MAX_FILE_TEXT_CHARS } from '../engine/records/attachment-limits.ts';
import { readAttachedFile } from './read-attached-file.ts';
import { sha256Hex } from '../common/sha256.ts';

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

  it('takes a PDF’s text out once, with pdf.js', async () => {
    const bytes = readFileSync(new URL('../../tests/fixtures/two-pages.pdf', import.meta.url));
    const read = await readAttachedFile(new File([bytes], 'paper.pdf', { type: 'application/pdf' }), { kind: 'pdf', type: 'application/pdf' });
    expect(read).toMatchObject({ kind: 'pdf', type: 'application/pdf', size: bytes.length, text: expect.stringMatching(/^Pausepoint reads the text of this PDF\.\n\n/) });
    expect(new Uint8Array(await read.blob.arrayBuffer())).toEqual(new Uint8Array(bytes));
  });
});
