import { describe, expect, it } from 'vitest';
import { attachmentKind } from './attachment-kind.ts';
import { humanSize } from './human-size.ts';

describe('attachmentKind', () => {
  it.each([
    ['photo.png', 'image/png', 'image', 'image/png'],
    ['photo.JPG', 'image/jpeg', 'image', 'image/jpeg'],
    ['anim.gif', '', 'image', 'image/gif'],
    ['pic.webp', 'application/octet-stream', 'image', 'image/webp'],
    ['paper.pdf', 'application/pdf', 'pdf', 'application/pdf'],
    ['paper.PDF', '', 'pdf', 'application/pdf'],
    ['notes.md', '', 'text', 'text/markdown'],
    ['notes.txt', 'text/plain; charset=utf-8', 'text', 'text/plain'],
    ['data.csv', 'text/csv', 'text', 'text/csv'],
    ['data.json', 'application/json', 'text', 'application/json'],
    ['main.rs', '', 'text', 'text/x-rust'],
    ['app.ts', 'video/mp2t', null, null],
    ['logo.svg', 'image/svg+xml', 'text', 'image/svg+xml'],
  ])('%s (%s) is %s', (name, type, kind, mime) => {
    expect(attachmentKind(name, type)).toEqual(kind === null ? null : { kind, type: mime });
  });

  it('refuses what it does not know by type or extension', () => {
    expect(attachmentKind('tool.exe', 'application/x-msdownload')).toBeNull();
    expect(attachmentKind('README', '')).toBeNull();
    expect(attachmentKind('image.bmp', 'image/bmp')).toBeNull();
    expect(attachmentKind('__proto__', '')).toBeNull();
    expect(attachmentKind('x.constructor', '')).toBeNull();
  });
});

describe('humanSize', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1_000, '1.0 kB'],
    [12_400, '12.4 kB'],
    [999_999, '1.0 MB'],
    [8_000_000, '8.0 MB'],
    [3_100_000_000, '3.1 GB'],
  ])('%d is %s', (bytes, text) => expect(humanSize(bytes)).toBe(text));
});
