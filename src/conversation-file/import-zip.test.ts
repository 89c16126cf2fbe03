import 'fake-indexeddb/auto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { importConversationsFile } from './import-conversations.ts';
import { makeZip } from './testing/make-zip.ts';
import { findZipEntry } from './zip-entry.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

const exportText = readFileSync(new URL('../../tests/fixtures/chatgpt/conversations.json', import.meta.url), 'utf8');
const zipFile = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]);

describe('Import conversations: a ChatGPT data export’s .zip, as downloaded', () => {
  it('reads its conversations.json, inflated as it is read, beside the export’s other files', async () => {
    const zip = makeZip([
      { path: 'chat.html', data: '<html>…</html>' },
      { path: 'file-2dXq9Ticket.png', data: new Uint8Array(5_000).fill(7), store: true },
      { path: 'conversations.json', data: exportText },
      { path: 'user.json', data: '{}' },
    ]);
    const result = await importConversationsFile(db, zipFile(zip));
    expect(result).toMatchObject({ source: 'chatgpt', conversations: 2, messages: 12, stopped: null, bytes: Buffer.byteLength(exportText) });
    expect((await db.conversations.toArray()).map((c) => c.title).sort()).toEqual(['Numbers and schedules', 'Weekend in Porto']);
  });

  it('reads a zip made by Info-ZIP’s zip, stored and deflated entries alike', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pausepoint-zip-'));
    writeFileSync(join(dir, 'conversations.json'), exportText);
    writeFileSync(join(dir, 'chat.html'), '<html></html>');
    let made: Uint8Array;
    try {
      execFileSync('zip', ['-q', '-X', join(dir, 'export.zip'), 'chat.html', 'conversations.json'], { cwd: dir });
      made = readFileSync(join(dir, 'export.zip'));
    } catch {
      // No zip command here: the test's own writer stands in (stored this time).
      made = makeZip([{ path: 'conversations.json', data: exportText, store: true }]);
    }
    const entry = await findZipEntry(zipFile(made), (path) => path.endsWith('conversations.json'));
    expect(entry).toMatchObject({ path: 'conversations.json', size: Buffer.byteLength(exportText) });
    expect(await new Response(entry!.stream()).text()).toBe(exportText);
  });

  it('takes the shallowest conversations.json when there are several', async () => {
    const zip = makeZip([
      { path: 'export/deeper/conversations.json', data: '[]' },
      { path: 'export/conversations.json', data: exportText },
      { path: 'export/deeper/still/conversations.json', data: '[]' },
    ]);
    const entry = await findZipEntry(zipFile(zip), (path) => path.endsWith('/conversations.json'));
    expect(entry?.path).toBe('export/conversations.json');
  });

  it('refuses a zip without conversations.json, and a damaged one, writing nothing', async () => {
    await expect(importConversationsFile(db, zipFile(makeZip([{ path: 'notes.txt', data: 'hello' }])))).rejects.toMatchObject({
      code: 'foreign_format',
      message: expect.stringContaining('has no conversations.json'),
    });
    const zip = makeZip([{ path: 'conversations.json', data: exportText }]);
    await expect(importConversationsFile(db, zipFile(zip.slice(0, zip.length - 10)))).rejects.toMatchObject({ message: expect.stringContaining('This zip file cannot be read') });
    expect(await db.conversations.count()).toBe(0);
  });

  it('keeps the conversations before a place where the zip’s data stops inflating', async () => {
    const many = JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ ...(JSON.parse(exportText) as object[])[0], title: `Trip ${i}` })));
    const zip = makeZip([{ path: 'conversations.json', data: many }]);
    // Damage the deflated data three quarters of the way in: what inflated before it is read.
    const damaged = zip.slice();
    const at = Math.floor(30 + 'conversations.json'.length + (zip.length - 130) * 0.75);
    damaged.fill(0xff, at, at + 64);
    const result = await importConversationsFile(db, zipFile(damaged));
    expect(result.stopped).toMatchObject({ reason: 'malformed' });
    expect(result.conversations).toBeGreaterThan(0);
    expect(result.conversations).toBeLessThan(300);
    expect(await db.conversations.count()).toBe(result.conversations);
  });
});
