import 'fake-indexeddb/auto';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { importConversations, importConversationStream, type ImportProgress, type ImportResult } from './import-conversations.ts';
import { CountingSink } from './testing/counting-sink.ts';
import { syntheticConversations, syntheticExportStream, type SyntheticExport } from './testing/synthetic-chatgpt-export.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

/** Every synthetic conversation of one spec has the same shape: this many messages come in of each. */
async function messagesPerImported(spec: SyntheticExport): Promise<number> {
  const sink = new CountingSink();
  await importConversationStream(syntheticExportStream({ ...spec, conversations: 1 }), sink);
  return sink.messages;
}

/** The export as text, and where each conversation begins in its bytes (all ASCII). */
function exportText(spec: SyntheticExport): { text: string; starts: number[] } {
  const starts: number[] = [];
  let text = '[';
  for (const conversation of syntheticConversations(spec)) {
    if (starts.length > 0) text += ',';
    starts.push(text.length);
    text += conversation;
  }
  return { text: `${text}]`, starts };
}

/** Whole conversations only: each stored conversation has all its messages, numbered 0…n-1 with nothing missing. */
async function expectWholeConversations(perConversation: number): Promise<number> {
  const conversations = await db.conversations.toArray();
  for (const conversation of conversations) {
    const seqs = (await db.messages.where('conversationId').equals(conversation.id).toArray()).map((m) => m.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: perConversation }, (_, i) => i));
    expect(conversation.nextSeq).toBe(perConversation);
  }
  expect(await db.messages.count()).toBe(conversations.length * perConversation);
  return conversations.length;
}

describe('Import conversations as a stream', () => {
  it('reads a 1 GB stream chunk by chunk, never ahead of what it has parsed, and cancels it when stopped', async () => {
    const spec = { conversations: 10_000, messagesPerConversation: 50, textBytes: 2_000 };
    let produced = 0;
    let largestChunk = 0;
    let cancelled = false;
    const source = syntheticExportStream(spec).getReader();
    // The stream is made as it is pulled (10,000 conversations of about 100 kB: over 1 GB in all); it counts what it gave.
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await source.read();
        if (done) return controller.close();
        produced += value.length;
        largestChunk = Math.max(largestChunk, value.length);
        controller.enqueue(value);
      },
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const seen: ImportProgress[] = [];
    const sink = new CountingSink();
    const result = await importConversationStream(stream, sink, {
      signal: controller.signal,
      onProgress: (progress) => {
        seen.push(progress);
        if (progress.conversations >= 200) controller.abort();
      },
    });
    expect(result.stopped).toEqual({ reason: 'cancelled' });
    expect(result.conversations).toBe(sink.conversations);
    expect(result.conversations).toBeGreaterThanOrEqual(200);
    // What the source made is what the importer read, at most one chunk ahead: nothing was gathered ahead of the parser.
    expect(produced - result.bytes).toBeLessThanOrEqual(largestChunk);
    expect(produced).toBeLessThan(60_000_000);
    expect(cancelled).toBe(true);
    // Progress came chunk by chunk in bytes, not once at the end.
    expect(new Set(seen.map((p) => p.bytes)).size).toBeGreaterThan(100);
  });

  it('holds no more than a batch or two, whatever the stream’s size: over 160 MB through a Node whose heap is capped at 32 MB', async () => {
    const script = fileURLToPath(new URL('./testing/import-under-heap-limit.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--max-old-space-size=32', '--import', 'tsx', script, '1700'], { maxBuffer: 1 << 20 });
    const { result, sink } = JSON.parse(stdout) as { result: ImportResult; sink: { conversations: number; messages: number } };
    expect(result.bytes).toBeGreaterThan(160_000_000);
    expect(result).toMatchObject({ conversations: 1700, stopped: null, skippedCount: 0 });
    expect(sink.conversations).toBe(1700);
    expect(sink.messages).toBe(result.messages);
  }, 180_000);

  it('cancelled part way, leaves whole conversations only: every batch written is whole, and what was read before the cancel is written', async () => {
    const spec = { conversations: 600, messagesPerConversation: 40, textBytes: 800 };
    const perConversation = await messagesPerImported(spec);
    const controller = new AbortController();
    let readWhenCancelled = 0;
    const result = await importConversationStream(syntheticExportStream(spec), new (await import('./dexie-import-sink.ts')).DexieImportSink(db), {
      signal: controller.signal,
      onProgress: ({ conversations, bytes }) => {
        if (conversations > 0 && !controller.signal.aborted) {
          readWhenCancelled = bytes;
          controller.abort();
        }
      },
    });
    expect(result.stopped).toEqual({ reason: 'cancelled' });
    expect(result.conversations).toBeGreaterThan(0);
    expect(result.conversations).toBeLessThan(600);
    expect(result.bytes).toBeGreaterThanOrEqual(readWhenCancelled);
    expect(await expectWholeConversations(perConversation)).toBe(result.conversations);
  });

  it('a file cut off in conversation 7 keeps the six before it, and says where it ends', async () => {
    const spec = { conversations: 10, messagesPerConversation: 30, textBytes: 500 };
    const perConversation = await messagesPerImported(spec);
    const { text, starts } = exportText(spec);
    const cut = starts[6]! + 1234;
    const result = await importConversations(db, text.slice(0, cut));
    expect(result.stopped).toEqual({ reason: 'malformed', offset: cut, number: 7, message: `This file is cut off at byte ${cut}, in conversation 7.` });
    expect(result.conversations).toBe(6);
    expect(await expectWholeConversations(perConversation)).toBe(6);
  });

  it('a file broken in conversation 5 names the byte, keeps the four before it and reads no further', async () => {
    const spec = { conversations: 10, messagesPerConversation: 30, textBytes: 500 };
    const perConversation = await messagesPerImported(spec);
    const { text, starts } = exportText(spec);
    const at = text.indexOf('"author"', starts[4]!);
    const broken = `${text.slice(0, at)}@${text.slice(at + 1)}`;
    const result = await importConversations(db, broken);
    expect(result.stopped).toEqual({ reason: 'malformed', offset: at, number: 5, message: `This file is not valid JSON at byte ${at}, in conversation 5.` });
    expect(result.conversations).toBe(4);
    expect(await expectWholeConversations(perConversation)).toBe(4);
  });
});
