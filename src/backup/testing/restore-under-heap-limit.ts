/**
 * Run by restore-stream.test.ts in a Node process whose heap is capped below
 * the file's size (`--max-old-space-size`): restores a synthetic backup of
 * `conversations` conversations, each with a file of `attachmentBytes`
 * (synthetic-backup.ts), into a fresh database (fake-indexeddb, which keeps
 * the files' bytes as Blobs, outside the heap), then prints the result, what
 * was stored and the heap's peak as JSON. Were the restore to hold the file's
 * text, V8 would end the process with an out-of-memory error.
 */
import 'fake-indexeddb/auto';
import '../../zod-config.ts';
import { PausepointDb } from '../../storage/db.ts';
import { restoreBackupFile } from '../restore-backup.ts';
import { syntheticBackupBlob } from './synthetic-backup-blob.ts';

const [conversations, attachmentBytes] = process.argv.slice(2).map(Number);
const spec = { conversations: conversations!, messagesPerConversation: 12, textBytes: 400, attachmentBytes: attachmentBytes! };
const file = syntheticBackupBlob(spec);
const db = new PausepointDb('restore-under-heap-limit');
await db.open();
let peak = 0;
const result = await restoreBackupFile(db, file, { onProgress: () => (peak = Math.max(peak, process.memoryUsage().heapUsed)) });
const stored = { conversations: await db.conversations.count(), messages: await db.messages.count(), attachments: await db.attachments.count(), ledger: await db.ledger.count() };
process.stdout.write(JSON.stringify({ size: file.size, result, stored, peakHeap: peak }));
