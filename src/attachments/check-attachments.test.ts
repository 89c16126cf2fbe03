import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, MAX_FILES_PER_MESSAGE, MAX_MESSAGE_BYTES } from '../engine/records/attachment-limits.ts';
import { checkAttachments } from './check-attachments.ts';

const png = (name: string, size = 1_000) => ({ name, size, type: 'image/png' });

describe('checkAttachments', () => {
  it('accepts files within every limit, each with its kind', () => {
    const { accepted, errors } = checkAttachments([], [png('a.png'), { name: 'notes.md', size: 10, type: '' }]);
    expect(errors).toEqual([]);
    expect(accepted.map((a) => [a.file.name, a.kind])).toEqual([
      ['a.png', { kind: 'image', type: 'image/png' }],
      ['notes.md', { kind: 'text', type: 'text/markdown' }],
    ]);
  });

  it('refuses a file over the per-file size, naming it and the limit, and keeps the rest', () => {
    const { accepted, errors } = checkAttachments([], [png('big.png', MAX_FILE_BYTES + 1), png('small.png')]);
    expect(accepted.map((a) => a.file.name)).toEqual(['small.png']);
    expect(errors).toEqual(['“big.png” is 8.0 MB: a file can be at most 8.0 MB.']);
  });

  it('accepts a file of exactly the per-file size', () => {
    expect(checkAttachments([], [png('edge.png', MAX_FILE_BYTES)]).errors).toEqual([]);
  });

  it('counts the files the message already holds against the per-message count', () => {
    const held = Array.from({ length: MAX_FILES_PER_MESSAGE - 1 }, () => ({ size: 1 }));
    const { accepted, errors } = checkAttachments(held, [png('ten.png'), png('eleven.png')]);
    expect(accepted.map((a) => a.file.name)).toEqual(['ten.png']);
    expect(errors).toEqual(['“eleven.png” was not added: a message can carry at most 10 files.']);
  });

  it('counts sizes already held and those just accepted against the per-message total', () => {
    const seven = 7_000_000;
    const { accepted, errors } = checkAttachments([{ size: seven }], [png('b.png', seven), png('c.png', seven)]);
    expect(accepted.map((a) => a.file.name)).toEqual(['b.png']);
    expect(errors).toEqual(["“c.png” was not added: a message's files can be at most 20.0 MB together."]);
    expect(checkAttachments([{ size: MAX_MESSAGE_BYTES - 5 }], [png('d.png', 5)]).errors).toEqual([]);
  });

  it('refuses an unknown type with what is accepted', () => {
    const { accepted, errors } = checkAttachments([], [{ name: 'archive.zip', size: 10, type: 'application/zip' }]);
    expect(accepted).toEqual([]);
    expect(errors[0]).toMatch(/^“archive\.zip” cannot be attached: Pausepoint sends images \(PNG, JPEG, GIF, WebP\), text files/);
  });
});
