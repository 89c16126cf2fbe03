import Tokenizer from '@streamparser/json/tokenizer.js';
import TokenParser from '@streamparser/json/tokenparser.js';
import { jsonErrorAt } from '../common/json-error-at.ts';
import { ImportError } from './import-error.ts';

/** One value of the file, as soon as the stream has brought all of it. */
export type FileItem =
  /** A conversation of a ChatGPT export (`index` from 0); `end` is the byte offset just after it. */
  | { kind: 'chatgpt'; index: number; value: unknown; end: number }
  /** A Pausepoint conversation file, whole: it holds one conversation. */
  | { kind: 'pausepoint'; value: Record<string, unknown> };

/**
 * The members a Pausepoint conversation file has (conversation-file-format.ts).
 * A top-level object with any other member is not one, and is refused at that
 * member rather than read to its end: a backup, or any large object, never
 * gathers in memory.
 */
const PAUSEPOINT_MEMBERS = new Set(['format', 'version', 'exportedAt', 'appVersion', 'conversation', 'messages', 'pausePoints']);
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const BOM = [0xef, 0xbb, 0xbf];

export interface ReadOptions {
  /** Called after each chunk with the bytes read so far. */
  onBytes?: (bytes: number) => void;
}

/**
 * Reads a conversations file as a stream and yields its conversations one at
 * a time (@streamparser/json: each element of the top-level array is emitted
 * as it completes, and with `keepStack: false` dropped from the array, so
 * what is held is the conversation being read, never the file). A ChatGPT
 * export is an array; a Pausepoint conversation file an object, yielded whole
 * at the end.
 *
 * Refuses, as an `ImportError`: a stream that is not JSON (`not_json`), JSON
 * of another kind (`foreign_format`), and JSON that breaks off or goes wrong
 * after it began (`malformed`, with the byte offset and the number of the
 * conversation it was in). The caller has by then had every conversation
 * before it. The reader is released on every way out, cancelling the stream.
 */
export async function* readConversationStream(stream: ReadableStream<Uint8Array>, options: ReadOptions = {}): AsyncGenerator<FileItem, void, undefined> {
  const reader = stream.getReader();
  const queue: FileItem[] = [];
  let kind: 'chatgpt' | 'pausepoint' | null = null;
  let bytes = 0;
  let lastToken = 0;
  let index = 0;
  const file: Record<string, unknown> = Object.create(null) as Record<string, unknown>;

  const tokenizer = new Tokenizer();
  const parser = new TokenParser({ paths: ['$.*'], keepStack: false });
  tokenizer.onToken = (token) => {
    lastToken = token.offset;
    parser.write(token);
  };
  tokenizer.onEnd = () => {
    if (!parser.isEnded) parser.end();
  };
  parser.onEnd = () => {
    if (!tokenizer.isEnded) tokenizer.end();
  };
  parser.onError = (error) => tokenizer.error(error);
  parser.onValue = ({ value, key }) => {
    if (kind === 'chatgpt') {
      queue.push({ kind, index: index++, value, end: lastToken + 1 });
    } else if (typeof key === 'string') {
      if (!PAUSEPOINT_MEMBERS.has(key)) throw notOurs();
      file[key] = value;
    }
  };

  try {
    for (;;) {
      const { done, value: chunk } = await reader.read().catch((error: unknown) => {
        // The file changed on disk, or a zip's data does not inflate: the conversations before are kept.
        throw new ImportError('malformed', `This file could not be read past byte ${bytes}: ${error instanceof Error ? error.message : String(error)}.`, {
          ...(kind === 'chatgpt' ? { index } : {}),
          offset: bytes,
          cause: error,
        });
      });
      if (done) break;
      if (kind === null) {
        const first = firstByte(chunk, bytes === 0);
        if (first !== undefined) {
          kind = first === 0x5b ? 'chatgpt' : first === 0x7b ? 'pausepoint' : null;
          if (kind === null) throw new ImportError('not_json', 'This file is not JSON: it does not begin with a list or an object. Nothing was imported.');
        }
      }
      const failure = feed(() => tokenizer.write(chunk));
      bytes += chunk.length;
      options.onBytes?.(bytes);
      // The conversations the chunk completed before the trouble are the caller's to keep.
      yield* drain(queue);
      if (failure) throw failure;
    }
    if (kind === null) throw new ImportError('not_json', 'This file is empty. Nothing was imported.');
    const failure = tokenizer.isEnded ? null : feed(() => tokenizer.end());
    yield* drain(queue);
    if (failure) throw failure;
    if (kind === 'chatgpt' && index === 0) throw notOurs();
    if (kind === 'pausepoint') yield { kind, value: file };
  } finally {
    reader.releaseLock();
    await stream.cancel().catch(() => undefined);
  }

  /** Writes into the parser; its complaint, if any, comes back as one that says where. */
  function feed(write: () => void): ImportError | null {
    try {
      write();
      return null;
    } catch (error) {
      if (error instanceof ImportError) return error;
      return malformed(error, kind === 'chatgpt' ? index : null, lastToken, bytes);
    }
  }
}

function* drain(queue: FileItem[]): Generator<FileItem> {
  while (queue.length > 0) yield queue.shift()!;
}

/** The first byte of the JSON in `chunk`, past whitespace (and a byte-order mark at the file's start); undefined when there is none yet. */
function firstByte(chunk: Uint8Array, atFileStart: boolean): number | undefined {
  let i = atFileStart && BOM.every((b, k) => chunk[k] === b) ? BOM.length : 0;
  while (i < chunk.length && WHITESPACE.has(chunk[i]!)) i++;
  return chunk[i];
}

function notOurs(): ImportError {
  return new ImportError('foreign_format', 'This file is neither a ChatGPT export’s conversations.json nor a conversation exported from Pausepoint. Nothing was imported.');
}

function malformed(error: unknown, conversation: number | null, lastToken: number, bytes: number): ImportError {
  const { offset, cutOff } = jsonErrorAt(error, lastToken, bytes);
  const what = cutOff ? 'is cut off' : 'is not valid JSON';
  const where = conversation === null ? `at byte ${offset}` : `at byte ${offset}, in conversation ${conversation + 1}`;
  return new ImportError('malformed', `This file ${what} ${where}.`, { index: conversation ?? undefined, offset, cause: error });
}
