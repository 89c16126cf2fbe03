import Tokenizer from '@streamparser/json/tokenizer.js';
import TokenParser from '@streamparser/json/tokenparser.js';
import TokenType from '@streamparser/json/utils/types/tokenType.js';
import { jsonErrorAt } from '../common/json-error-at.ts';
import { BackupError } from './backup-error.ts';

/** What a backup file holds, in the order the stream brings it (backup-format.ts). */
export type BackupItem =
  /** `format`, `version`, `createdAt` or `appVersion`. */
  | { kind: 'header'; key: string; value: unknown }
  /** The file's `data` begins: what it holds is read against the header from here on. */
  | { kind: 'data' }
  /** A member of `data` begins: a table's list, the attachments' list or the settings (`shape` says what it is). */
  | { kind: 'member'; key: string; shape: 'list' | 'object' | 'null' | 'other' }
  /** One element of a list in `data` (`index` from 0). */
  | { kind: 'record'; table: string; index: number; value: unknown }
  /** One field of `data.settings`. */
  | { kind: 'setting'; key: string; value: unknown }
  /** One element of `skipped`. */
  | { kind: 'skipped'; value: unknown };

/** The members a backup has at its top; any other is refused where it begins, so nothing unknown gathers in memory. */
const ROOT_MEMBERS = new Set(['format', 'version', 'createdAt', 'appVersion', 'data', 'skipped']);
const HEADER = ['format', 'version', 'createdAt', 'appVersion'];
const NOTHING = 'Nothing was restored.';

export interface ReadBackupOptions {
  /** Called after each chunk with the bytes read so far. */
  onBytes?: (bytes: number) => void;
  /** The members `data` may have (the tables, `attachments`, `settings`); another is refused where it begins. */
  dataMembers: ReadonlySet<string>;
}

/**
 * Reads a backup file as a stream and yields what it holds one record at a
 * time (@streamparser/json with `keepStack: false`: each record is dropped
 * from its list once yielded, so what is held is the record being read, never
 * the file). Beside the parser, a small watch over the tokens says where each
 * member of `data` begins and what it is, so a table that is not a list, or is
 * missing, is known without gathering the table.
 *
 * Refuses, as a `BackupError` with the byte `offset`: a stream that is not
 * JSON or breaks off (`not_json`), and JSON whose top is not a backup's
 * (`foreign_format`, `invalid_file`). The reader is released on every way out.
 */
export async function* readBackupStream(stream: ReadableStream<Uint8Array>, options: ReadBackupOptions): AsyncGenerator<BackupItem, void, undefined> {
  const reader = stream.getReader();
  const queue: BackupItem[] = [];
  let bytes = 0;
  let lastToken = 0;

  // The watch over the tokens: which containers are open, and the member each value belongs to.
  const open: ('object' | 'list')[] = [];
  let keyNext = false;
  let rootKey: string | undefined;
  let dataKey: string | undefined;
  const watch = (token: TokenType, value: unknown, offset: number) => {
    const depth = open.length;
    const inObject = open[depth - 1] === 'object';
    if (inObject && keyNext && token === TokenType.STRING) {
      keyNext = false;
      const key = String(value);
      if (depth === 1) {
        if (!ROOT_MEMBERS.has(key)) throw new BackupError('foreign_format', `This file is not a Pausepoint backup: it has a member "${key.slice(0, 80)}" no backup has. ${NOTHING}`, { offset });
        rootKey = key;
        if (key === 'data') queue.push({ kind: 'data' });
      } else if (depth === 2 && rootKey === 'data') {
        if (!options.dataMembers.has(key)) throw new BackupError('invalid_file', `This backup file is damaged: its data has a member "${key.slice(0, 80)}" no backup of its version has. ${NOTHING}`, { offset });
        dataKey = key;
      }
      return;
    }
    if (token === TokenType.COLON) return;
    if (token === TokenType.COMMA) {
      keyNext = inObject;
      return;
    }
    if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) {
      open.pop();
      return;
    }
    // A value begins.
    if (depth === 0 && token !== TokenType.LEFT_BRACE) throw new BackupError('foreign_format', `This file is not a Pausepoint backup: it has no "format" field. ${NOTHING}`, { offset });
    if (depth === 1 && rootKey === 'data' && token !== TokenType.LEFT_BRACE) throw new BackupError('invalid_file', `This backup file is damaged: data: expected an object. ${NOTHING}`, { offset });
    if (depth === 2 && rootKey === 'data' && dataKey !== undefined) {
      const shape = token === TokenType.LEFT_BRACKET ? 'list' : token === TokenType.LEFT_BRACE ? 'object' : token === TokenType.NULL ? 'null' : 'other';
      queue.push({ kind: 'member', key: dataKey, shape });
    }
    if (token === TokenType.LEFT_BRACE) {
      open.push('object');
      keyNext = true;
    } else if (token === TokenType.LEFT_BRACKET) {
      open.push('list');
    }
  };

  const tokenizer = new Tokenizer();
  const parser = new TokenParser({ paths: [...HEADER.map((key) => `$.${key}`), '$.data.*.*', '$.skipped.*'], keepStack: false });
  tokenizer.onToken = ({ token, value, offset }) => {
    lastToken = offset;
    watch(token, value, offset);
    parser.write({ token, value, offset } as Parameters<TokenParser['write']>[0]);
  };
  tokenizer.onEnd = () => {
    if (!parser.isEnded) parser.end();
  };
  parser.onEnd = () => {
    if (!tokenizer.isEnded) tokenizer.end();
  };
  parser.onError = (error) => tokenizer.error(error);
  parser.onValue = ({ value, key, stack }) => {
    if (stack.length === 1) {
      queue.push({ kind: 'header', key: String(key), value });
    } else if (stack[1]?.key === 'skipped') {
      queue.push({ kind: 'skipped', value });
    } else {
      const member = String(stack[2]?.key);
      if (member === 'settings') queue.push({ kind: 'setting', key: String(key), value });
      else if (typeof key === 'number') queue.push({ kind: 'record', table: member, index: key, value });
    }
  };

  try {
    for (;;) {
      const { done, value: chunk } = await reader.read().catch((error: unknown) => {
        throw new BackupError('not_json', `This file could not be read past byte ${bytes}: ${error instanceof Error ? error.message : String(error)}. ${NOTHING}`, {
          offset: bytes,
          cause: error,
        });
      });
      if (done) break;
      const failure = feed(() => tokenizer.write(chunk));
      bytes += chunk.length;
      options.onBytes?.(bytes);
      yield* drain(queue);
      if (failure) throw failure;
    }
    if (bytes === 0) throw new BackupError('not_json', `This file is not a readable backup: it is empty. ${NOTHING}`, { offset: 0 });
    const failure = tokenizer.isEnded ? null : feed(() => tokenizer.end());
    yield* drain(queue);
    if (failure) throw failure;
  } finally {
    reader.releaseLock();
    await stream.cancel().catch(() => undefined);
  }

  /** Writes into the parser; its complaint, if any, comes back as one that says where. */
  function feed(write: () => void): BackupError | null {
    try {
      write();
      return null;
    } catch (error) {
      if (error instanceof BackupError) return error;
      return malformed(error, lastToken, bytes);
    }
  }
}

function* drain(queue: BackupItem[]): Generator<BackupItem> {
  while (queue.length > 0) yield queue.shift()!;
}

function malformed(error: unknown, lastToken: number, bytes: number): BackupError {
  const { offset, cutOff } = jsonErrorAt(error, lastToken, bytes);
  const what = cutOff ? `it is cut off at byte ${offset}` : `it is not valid JSON at byte ${offset}`;
  return new BackupError('not_json', `This file is not a readable backup: it is not valid JSON, or it was cut off (${what}). ${NOTHING}`, { offset, cause: error });
}
