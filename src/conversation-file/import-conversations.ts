import { z } from 'zod';
import { yieldToEventLoop } from '../common/yield-to-event-loop.ts';
import { inertConversation, type InertConversation } from '../inert/index.ts';
import type { PausepointDb } from '../storage/db.ts';
import { toStorageError } from '../storage/storage-error.ts';
import { ChatGptConversation, looksLikeChatGptExport } from './chatgpt-export.ts';
import { CONVERSATION_FORMAT, CONVERSATION_VERSION, ConversationFile, MAX_IMPORT_FILE_BYTES } from './conversation-file-format.ts';
import { fromChatGpt } from './from-chatgpt.ts';
import { ImportError } from './import-error.ts';
import type { ImportedConversation } from './imported-conversation.ts';

export interface ImportProgress {
  /** Conversations read from the file so far. */
  done: number;
  total: number;
}

export interface ImportOptions {
  onProgress?: (progress: ImportProgress) => void;
  uuid?: () => string;
  /** The import's time: no time of the file may lie after it. */
  now?: () => number;
}

export interface ImportResult {
  source: 'chatgpt' | 'pausepoint';
  conversations: number;
  messages: number;
  /** Conversations given new ids because theirs were already used here. */
  renamed: number;
}

const MEGABYTE = 1_000_000;
/** What a file says it is, read before the whole of it is checked: a file of another format or version is named as such. */
const FileHeader = z.looseObject({ format: z.unknown().optional(), version: z.unknown().optional() });
/** Conversations converted between yields: a large export never holds the page for long. */
const BATCH = 25;

/** Imports a file the person chose: refused unread when larger than `MAX_IMPORT_FILE_BYTES`. */
export async function importConversationsFile(db: PausepointDb, file: Blob, options: ImportOptions = {}): Promise<ImportResult> {
  if (file.size > MAX_IMPORT_FILE_BYTES) {
    throw new ImportError(
      'too_large',
      `This file is ${(file.size / MEGABYTE).toFixed(1)} MB; Pausepoint imports files of up to ${MAX_IMPORT_FILE_BYTES / MEGABYTE} MB, so it was not read. Nothing was imported.`,
    );
  }
  return importConversations(db, await file.text(), options);
}

/**
 * Imports a ChatGPT data export's `conversations.json` or a Pausepoint
 * conversation file (Export as JSON). All or nothing: the file is read and
 * checked whole first, then every conversation is written in one transaction.
 * What comes in is history: each conversation passes the inert path
 * (src/inert/inert-conversation.ts), so nothing in it runs or asks, no card
 * or decision of it is honoured, its instructions are off, its usage is not
 * counted, and every record in it has an id of its own here.
 */
export async function importConversations(db: PausepointDb, text: string, options: ImportOptions = {}): Promise<ImportResult> {
  const uuid = options.uuid ?? (() => crypto.randomUUID());
  const json = parseJson(text);
  const { source, conversations } = looksLikeChatGptExport(json)
    ? { source: 'chatgpt' as const, conversations: await fromChatGptExport(json, uuid, options.onProgress) }
    : { source: 'pausepoint' as const, conversations: [pausepointFile(json)] };
  const renamed = await write(db, conversations, uuid, (options.now ?? Date.now)());
  return { source, conversations: conversations.length, messages: conversations.reduce((n, c) => n + c.messages.length, 0), renamed };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new ImportError('not_json', 'This file is not JSON, or it is cut off. Nothing was imported.', { cause: error });
  }
}

async function fromChatGptExport(items: unknown[], uuid: () => string, onProgress?: (progress: ImportProgress) => void): Promise<ImportedConversation[]> {
  const out: ImportedConversation[] = [];
  for (const [index, item] of items.entries()) {
    const parsed = ChatGptConversation.safeParse(item);
    if (!parsed.success) throw invalid(`Conversation ${index + 1} of this ChatGPT export is not one: ${issueText(parsed.error)}.`, index);
    const conversation = fromChatGpt(parsed.data, uuid);
    if (!conversation) throw invalid(`Conversation ${index + 1} of this ChatGPT export (“${parsed.data.title ?? 'untitled'}”) has a broken message tree.`, index);
    out.push(conversation);
    if ((index + 1) % BATCH === 0) {
      onProgress?.({ done: index + 1, total: items.length });
      await yieldToEventLoop();
    }
  }
  onProgress?.({ done: items.length, total: items.length });
  return out;
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

/**
 * Writes every conversation in one transaction, each through the inert path.
 * A conversation keeps the file's id unless that id is used here (or by an
 * earlier conversation of the same file): writing it as it is would replace a
 * conversation of this browser. Every record it owns gets a fresh id anyway.
 * Returns how many were given a new conversation id.
 */
async function write(db: PausepointDb, conversations: ImportedConversation[], uuid: () => string, at: number): Promise<number> {
  return db
    .transaction('rw', db.conversations, db.messages, db.pausePoints, async () => {
      let renamed = 0;
      const written: InertConversation[] = [];
      const used = new Set<string>();
      for (const imported of conversations) {
        const id = imported.conversation.id;
        const taken = used.has(id) || (await db.conversations.get(id)) !== undefined;
        if (taken) renamed++;
        const conversationId = taken ? uuid() : id;
        used.add(conversationId);
        written.push(inertConversation(imported, { source: 'import', at, conversationId, uuid }));
      }
      await db.conversations.bulkAdd(written.map((c) => c.conversation));
      await db.messages.bulkAdd(written.flatMap((c) => c.messages));
      await db.pausePoints.bulkAdd(written.flatMap((c) => c.pausePoints));
      return renamed;
    })
    .catch((error: unknown) => {
      throw toStorageError(error);
    });
}

function invalid(message: string, index?: number): ImportError {
  return new ImportError('invalid_file', message, index === undefined ? {} : { index });
}

/** The first issue, where it is: enough to find it in the file. */
function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'it does not match the format';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
