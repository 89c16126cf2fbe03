import { z } from 'zod';
import { writeInBatches } from '../common/write-in-batches.ts';
import { inertConversation } from '../inert/index.ts';
import type { PausepointDb } from '../storage/db.ts';
import { ChatGptConversation } from './chatgpt-export.ts';
import { CONVERSATION_FORMAT, CONVERSATION_VERSION, ConversationFile } from './conversation-file-format.ts';
import { DexieImportSink, type ImportSink } from './dexie-import-sink.ts';
import { fromChatGpt } from './from-chatgpt.ts';
import { ImportError } from './import-error.ts';
import type { ImportedConversation } from './imported-conversation.ts';
import { readConversationStream } from './read-conversation-stream.ts';
import { findZipEntry, isZip } from './zip-entry.ts';

export interface ImportProgress {
  /** Conversations written so far. */
  conversations: number;
  /** Bytes of the file read so far, and its size when known. */
  bytes: number;
  totalBytes: number | null;
}

export interface ImportOptions {
  onProgress?: (progress: ImportProgress) => void;
  /** Cancel: the import stops after the conversations already read are written, whole. */
  signal?: AbortSignal;
  /** The file's size, for progress. */
  totalBytes?: number;
  uuid?: () => string;
  /** The import's time: no time of the file may lie after it. */
  now?: () => number;
}

/** A conversation of the file that was not imported, and why. */
export interface SkippedConversation {
  /** Its place in the file, from 1. */
  number: number;
  reason: string;
}

/** Why an import ended before the file's end; what came before it was imported. */
export type ImportStop = { reason: 'cancelled' } | { reason: 'malformed'; message: string; offset: number; number: number | null };

export interface ImportResult {
  source: 'chatgpt' | 'pausepoint';
  conversations: number;
  messages: number;
  /** Conversations given new ids because theirs were already used here. */
  renamed: number;
  /** The first `MAX_SKIPPED_LISTED` conversations skipped, with their reasons; `skippedCount` counts them all. */
  skipped: SkippedConversation[];
  skippedCount: number;
  stopped: ImportStop | null;
  bytes: number;
}

/** Skipped conversations named in a result: enough to find the trouble, bounded whatever the file. */
export const MAX_SKIPPED_LISTED = 20;

/**
 * What a batch holds before it is written: one transaction each, so a
 * cancelled or broken import keeps whole conversations only, and about this
 * much text in memory besides the conversation being read.
 */
const BATCH_CONVERSATIONS = 200;
const BATCH_CHARACTERS = 1_000_000;

/** What a file says it is, read before the whole of it is checked: a file of another format or version is named as such. */
const FileHeader = z.looseObject({ format: z.unknown().optional(), version: z.unknown().optional() });
const Titled = z.looseObject({ title: z.string() });

/**
 * Imports a file the person chose, of any size: read as a stream (see
 * `importConversationStream`). A ChatGPT data export's `.zip`, as downloaded,
 * is read for its `conversations.json`, inflated as it is read (zip-entry.ts).
 */
export async function importConversationsFile(db: PausepointDb, file: Blob, options: ImportOptions = {}): Promise<ImportResult> {
  if (await isZip(file)) {
    const entry = await findZipEntry(file, (path) => path === 'conversations.json' || path.endsWith('/conversations.json'));
    if (!entry) throw new ImportError('foreign_format', 'This zip file has no conversations.json: it is not a ChatGPT data export. Nothing was imported.');
    return importConversationStream(entry.stream(), new DexieImportSink(db), { totalBytes: entry.size, ...options });
  }
  return importConversationStream(file.stream(), new DexieImportSink(db), { totalBytes: file.size, ...options });
}

/** The same from text in memory (tests, small files). */
export function importConversations(db: PausepointDb, text: string, options: ImportOptions = {}): Promise<ImportResult> {
  return importConversationsFile(db, new Blob([text]), options);
}

/**
 * Imports a ChatGPT data export's `conversations.json` or a Pausepoint
 * conversation file (Export as JSON), read as a stream one conversation at a
 * time (read-conversation-stream.ts) and written in batches, each batch in one
 * transaction: the memory it takes is bounded by the largest conversation, not
 * the file. What comes in is history: each conversation passes the inert path
 * (src/inert/inert-conversation.ts), one at a time, so nothing in it runs or
 * asks, no card or decision of it is honoured, its instructions are off, its
 * usage is not counted, and every record in it has an id of its own here.
 *
 * A ChatGPT conversation that is not one, or whose message tree is broken, is
 * skipped and named in the result. A file that is not what it should be is
 * refused before anything is written (`ImportError`); one that breaks off or
 * goes wrong part way keeps the conversations before it, and the result says
 * where it stopped (or, when none came before, it is refused). Cancelling
 * (`signal`) writes what was read, whole, and stops.
 */
export async function importConversationStream(stream: ReadableStream<Uint8Array>, sink: ImportSink, options: ImportOptions = {}): Promise<ImportResult> {
  const uuid = options.uuid ?? (() => crypto.randomUUID());
  const at = (options.now ?? Date.now)();
  const result: ImportResult = { source: 'chatgpt', conversations: 0, messages: 0, renamed: 0, skipped: [], skippedCount: 0, stopped: null, bytes: 0 };
  const progress = () => options.onProgress?.({ conversations: result.conversations, bytes: result.bytes, totalBytes: options.totalBytes ?? null });

  // Ids this import wrote: a conversation file's id may be used twice in one file, or be here already.
  const used = new Set<string>();
  const admit = (imported: ImportedConversation, taken: boolean) => {
    const id = imported.conversation.id;
    const rename = taken || used.has(id);
    if (rename) result.renamed++;
    const conversationId = rename ? uuid() : id;
    used.add(conversationId);
    return inertConversation(imported, { source: 'import', at, conversationId, uuid });
  };

  // Read and checked one conversation at a time; a skipped one is named and read past.
  async function* conversations(): AsyncGenerator<ImportedConversation | undefined> {
    for await (const item of readConversationStream(stream, { onBytes: (bytes) => ((result.bytes = bytes), progress()) })) {
      if (item.kind === 'pausepoint') {
        result.source = 'pausepoint';
        yield pausepointFile(item.value);
        return;
      }
      const converted = fromChatGptItem(item.index, item.value, uuid);
      if ('reason' in converted) {
        result.skippedCount++;
        if (result.skipped.length < MAX_SKIPPED_LISTED) result.skipped.push(converted);
        yield undefined;
      } else {
        yield converted;
      }
    }
  }

  const end = await writeInBatches(conversations(), {
    write: (batch) => sink.write(batch, admit),
    onWritten: (batch) => {
      result.conversations += batch.length;
      result.messages += batch.reduce((n, c) => n + c.messages.length, 0);
      progress();
    },
    maxItems: BATCH_CONVERSATIONS,
    maxWeight: BATCH_CHARACTERS,
    weigh: (conversation) => conversation.messages.reduce((n, m) => n + m.content.length, 0),
    signal: options.signal,
    keepsBefore: (error) => error instanceof ImportError && error.code === 'malformed',
  });
  if (end.stop === 'cancelled') result.stopped = { reason: 'cancelled' };
  if (end.stop === 'broken') {
    const error = end.error as ImportError;
    if (result.conversations === 0) throw error;
    result.stopped = { reason: 'malformed', message: error.message, offset: error.offset ?? result.bytes, number: error.index === undefined ? null : error.index + 1 };
  }
  return result;
}

/** One element of a ChatGPT export as a conversation, or why it is skipped. The first must look like one, or the file is not an export. */
function fromChatGptItem(index: number, value: unknown, uuid: () => string): ImportedConversation | SkippedConversation {
  const number = index + 1;
  if (index === 0 && !(typeof value === 'object' && value !== null && 'mapping' in value)) {
    throw new ImportError('foreign_format', 'This file is neither a ChatGPT export’s conversations.json nor a conversation exported from Pausepoint. Nothing was imported.');
  }
  const parsed = ChatGptConversation.safeParse(value);
  if (!parsed.success) {
    const title = Titled.safeParse(value);
    return { number, reason: `Conversation ${number}${title.success ? ` (“${title.data.title}”)` : ''} is not one: ${issueText(parsed.error)}` };
  }
  return fromChatGpt(parsed.data, uuid) ?? { number, reason: `Conversation ${number} (“${parsed.data.title ?? 'untitled'}”) has a broken message tree` };
}

function pausepointFile(json: unknown): ImportedConversation {
  const header = FileHeader.safeParse(json);
  const format = header.success ? header.data.format : undefined;
  if (format !== CONVERSATION_FORMAT) {
    const what = format === 'pausepoint.backup' ? 'a Pausepoint backup: restore it under Backup and storage' : 'neither a ChatGPT export’s conversations.json nor a conversation exported from Pausepoint';
    throw new ImportError('foreign_format', `This file is ${what}. Nothing was imported.`);
  }
  const version = header.success ? header.data.version : undefined;
  if (typeof version === 'number' && version > CONVERSATION_VERSION) {
    throw new ImportError('future_version', `This conversation was exported by a newer Pausepoint (format version ${version}); this one reads version ${CONVERSATION_VERSION}. Nothing was imported.`);
  }
  const parsed = ConversationFile.safeParse(json);
  if (!parsed.success) throw invalid(`This conversation file is broken: ${issueText(parsed.error)}. Nothing was imported.`);
  const { conversation, messages, pausePoints } = parsed.data;
  const problem = linkProblem(parsed.data);
  if (problem) throw invalid(`This conversation file is broken: ${problem}. Nothing was imported.`);
  return { conversation, messages: [...messages].sort((a, b) => a.seq - b.seq), pausePoints };
}

/** Every record must belong to the file's conversation, and each id and `seq` come once. */
function linkProblem({ conversation, messages, pausePoints }: ConversationFile): string | null {
  const ids = new Set<string>();
  const seqs = new Set<number>();
  for (const message of messages) {
    if (message.conversationId !== conversation.id) return `message ${message.id} belongs to another conversation`;
    if (ids.has(message.id)) return `message id ${message.id} comes twice`;
    if (seqs.has(message.seq)) return `two messages have the place ${message.seq}`;
    ids.add(message.id);
    seqs.add(message.seq);
  }
  const cards = new Set<string>();
  for (const pause of pausePoints) {
    if (pause.conversationId !== conversation.id) return `card ${pause.id} belongs to another conversation`;
    if (cards.has(pause.id)) return `card id ${pause.id} comes twice`;
    cards.add(pause.id);
  }
  return null;
}

function invalid(message: string): ImportError {
  return new ImportError('invalid_file', message);
}

/** The first issue, where it is: enough to find it in the file. */
function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'it does not match the format';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
