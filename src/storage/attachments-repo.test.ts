import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../common/sha256.ts';
import { makeConversation } from '../engine/testing/make-records.ts';
import { DexieAttachments, deleteAttachments, putAttachments, readAttachment } from './attachments-repo.ts';
import type { PausepointDb } from './db.ts';
import { DexieStorage } from './dexie-storage.ts';
import { refOf, type StoredAttachment } from './stored-attachment.ts';
import { useTestDb } from './testing/open-test-db.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

async function stored(id: string, bytes: Uint8Array<ArrayBuffer>, type: string, kind: StoredAttachment['kind'], text?: string): Promise<StoredAttachment> {
  return { v: 1, id, name: `${id}.bin`, type, size: bytes.length, sha256: await sha256Hex(bytes), kind, blob: new Blob([bytes], { type }), createdAt: 1, ...(text === undefined ? {} : { text }) };
}

describe('the attachments table', () => {
  it('keeps the Blob, its hash and the extracted text, by id', async () => {
    const row = await stored('a1', new TextEncoder().encode('hi'), 'text/plain', 'text', 'hi');
    await putAttachments(db, [row]);
    const back = await readAttachment(db, 'a1');
    expect(back && refOf(back)).toEqual(refOf(row));
    expect(back?.text).toBe('hi');
    expect(new Uint8Array(await back!.blob.arrayBuffer())).toEqual(new TextEncoder().encode('hi'));
    await deleteAttachments(db, ['a1']);
    expect(await readAttachment(db, 'a1')).toBeUndefined();
  });

  it('goes with the conversation whose messages name it, and leaves others', async () => {
    const storage = new DexieStorage(db);
    const mine = await stored('a1', new Uint8Array([1]), 'image/png', 'image');
    const other = await stored('a2', new Uint8Array([2]), 'image/png', 'image');
    await putAttachments(db, [mine, other]);
    await storage.putConversation(makeConversation({ id: 'c1' }));
    await storage.appendMessages('c1', [{ v: 1, id: 'm1', conversationId: 'c1', createdAt: 2, role: 'user', content: '', attachments: [refOf(mine)] }]);
    expect(await storage.deleteConversation('c1')).toBe(true);
    expect(await readAttachment(db, 'a1')).toBeUndefined();
    expect(await readAttachment(db, 'a2')).toBeDefined();
  });
});

describe('DexieAttachments', () => {
  it('reads images as data: URLs and text as stored, leaving out refs with no bytes or other bytes', async () => {
    const png = await stored('i1', new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'image/png', 'image');
    const md = await stored('t1', new TextEncoder().encode('# x'), 'text/markdown', 'text', '# x');
    await putAttachments(db, [png, md]);
    const port = new DexieAttachments(db);
    const gone = { ...refOf(png), id: 'gone', sha256: 'c'.repeat(64) };
    const swapped = { ...refOf(md), sha256: 'b'.repeat(64) };
    const read = await port.read([refOf(png), refOf(md), gone]);
    expect(read.get('i1')).toEqual({ kind: 'image', dataUrl: 'data:image/png;base64,iVBORw==' });
    expect(read.get('t1')).toEqual({ kind: 'text', text: '# x' });
    expect(read.has('gone')).toBe(false);
    expect((await port.read([swapped])).has('t1')).toBe(false);
  });

  it('encodes an image once per hash, within its bound', async () => {
    const a = await stored('i1', new Uint8Array(30), 'image/png', 'image');
    const b = await stored('i2', new Uint8Array(31), 'image/png', 'image');
    await putAttachments(db, [a, b]);
    const port = new DexieAttachments(db, 80);
    await port.read([refOf(a)]);
    // Gone from the table, still in the cache: the second step reads nothing.
    await deleteAttachments(db, ['i1']);
    expect((await port.read([refOf(a)])).get('i1')).toMatchObject({ kind: 'image' });
    await port.read([refOf(b)]);
    expect(port.cachedChars).toBeLessThanOrEqual(80);
    expect((await port.read([refOf(a)])).has('i1')).toBe(false);
  });
});
