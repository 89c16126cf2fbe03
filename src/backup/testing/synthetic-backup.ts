import { createHash } from 'node:crypto';
import type { AttachmentRef, Conversation, LedgerEntry, Message, PausePoint } from '../../engine/records/index.ts';
import { BACKUP_FORMAT, BACKUP_VERSION } from '../backup-format.ts';

/**
 * A backup file made up deterministically, for the restore bench and the
 * streaming tests (Node: it hashes with node:crypto): the same arguments give
 * the same bytes. Each conversation has a question with an attached file (its
 * bytes in base64 at the file's end, as a backup carries them), answers of
 * about `textBytes`, and a gated `http_request` call that was approved and
 * ran: the call, its card, its ledger entry and its result. Tables come in a
 * backup's order, so a conversation's records lie far apart, as in a real one;
 * its messages together, as create-backup.ts lists them, or (`scattered`)
 * interleaved with other conversations', as backups listed them in id order
 * before.
 */
export interface SyntheticBackup {
  conversations: number;
  messagesPerConversation: number;
  /** Bytes of prose per message, about. */
  textBytes: number;
  /** Bytes of the one file attached to each conversation's first question. */
  attachmentBytes: number;
  /** Messages interleaved across conversations rather than a conversation's together. */
  scattered?: boolean;
}

const DAY = Date.UTC(2026, 0, 1);
const WORDS = 'invoice ticket train porto lisbon answer question schedule budget meeting draft summary travel report quarter revenue'.split(' ');

/** The file's text, part by part (a record or a file each): write them out, or make a Blob of them. */
export function* syntheticBackupParts(spec: SyntheticBackup): Generator<string> {
  const ids = Array.from({ length: spec.conversations }, (_, c) => `0000beef-0000-4000-8000-${String(c).padStart(12, '0')}`);
  yield `{"format":${JSON.stringify(BACKUP_FORMAT)},"version":${BACKUP_VERSION},"createdAt":"2026-12-01T00:00:00.000Z","appVersion":"bench","data":{`;
  const table = function* (name: string, rows: Iterable<unknown>, first = false): Generator<string> {
    yield `${first ? '' : ','}\n${JSON.stringify(name)}:[`;
    let n = 0;
    for (const row of rows) yield `${n++ === 0 ? '\n' : ',\n'}${typeof row === 'string' ? row : JSON.stringify(row)}`;
    yield '\n]';
  };
  yield* table('conversations', ids.map((id, c) => conversation(id, c, spec)), true);
  const of = (id: string, c: number) => messages(id, c, spec);
  yield* table('messages', spec.scattered ? interleaved(ids, of) : together(ids, of));
  yield* table('pausePoints', ids.map((id) => card(id)));
  yield* table('ledger', ids.map((id) => entry(id)));
  yield* table('notes', []);
  yield* table('approvalRules', []);
  yield* table('auditEvents', []);
  yield* table('attachments', attachmentLines(ids, spec));
  yield '\n,"settings":null},"skipped":[]}\n';
}

function* together(ids: readonly string[], of: (id: string, c: number) => Message[]): Generator<Message> {
  for (const [c, id] of ids.entries()) yield* of(id, c);
}

function* interleaved(ids: readonly string[], of: (id: string, c: number) => Message[]): Generator<Message> {
  // Round-robin over a window of conversations: bounded in memory, and spread over the table.
  const WINDOW = 50;
  for (let start = 0; start < ids.length; start += WINDOW) {
    const lists = ids.slice(start, start + WINDOW).map((id, k) => of(id, start + k));
    const longest = Math.max(...lists.map((list) => list.length));
    for (let i = 0; i < longest; i++) for (const list of lists) if (list[i]) yield list[i]!;
  }
}

function conversation(id: string, c: number, spec: SyntheticBackup): Conversation {
  return { v: 1, id, title: `Conversation ${c + 1}`, createdAt: DAY + c, updatedAt: DAY + c + 1_000, state: { kind: 'idle' }, turns: 1, nextSeq: spec.messagesPerConversation };
}

const ARGS = { url: 'https://api.example.com/invoices', method: 'POST', body: '{"amount":120}' };
const callId = (id: string) => `call_${id.slice(-6)}`;

/** A question with a file, the gated call, its result, then prose back and forth up to `messagesPerConversation`. */
function messages(id: string, c: number, spec: SyntheticBackup): Message[] {
  const base = (seq: number) => ({ v: 1 as const, id: `${id}-m${seq}`, conversationId: id, seq, createdAt: DAY + c + seq });
  const list: Message[] = [
    { ...base(0), role: 'user', content: prose(c, 0, spec.textBytes), attachments: [attachmentRef(id, c, spec)] },
    { ...base(1), role: 'assistant', content: '', status: 'complete', turnIndex: 0, toolCalls: [{ id: callId(id), name: 'http_request', arguments: JSON.stringify(ARGS) }] },
    { ...base(2), role: 'tool', toolCallId: callId(id), toolName: 'http_request', content: '{"status":200}', outcome: 'done' },
  ];
  for (let seq = 3; seq < spec.messagesPerConversation; seq++) {
    list.push(
      seq % 2 === 1
        ? { ...base(seq), role: 'assistant', content: prose(c, seq, spec.textBytes), status: 'complete', turnIndex: 0, toolCalls: [] }
        : { ...base(seq), role: 'user', content: prose(c, seq, spec.textBytes) },
    );
  }
  return list;
}

function card(id: string): PausePoint {
  return {
    v: 1,
    id: `${id}-p`,
    conversationId: id,
    turnIndex: 0,
    title: 'Send the invoice?',
    description: 'Sends **1** invoice of 120 EUR.',
    options: null,
    payload: ARGS,
    kind: 'approval',
    status: 'resolved',
    resolution: 'approve',
    resolvedAt: DAY + 2,
    createdAt: DAY + 1,
    origin: 'gate',
    toolCallId: callId(id),
    toolName: 'http_request',
    expiresAt: null,
  };
}

function entry(id: string): LedgerEntry {
  return { v: 1, id: `${id}:${callId(id)}`, conversationId: id, toolCallId: callId(id), toolName: 'http_request', args: ARGS, status: 'succeeded', attempts: 1, startedAt: DAY + 3, finishedAt: DAY + 4, result: '{"status":200}' };
}

/** The attached file's bytes: a seeded sequence, different for each conversation. */
function attachmentBytes(c: number, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  let a = (c + 1) * 2654435761;
  for (let i = 0; i < size; i++) {
    a = (a ^ (a << 13)) >>> 0;
    a = (a ^ (a >>> 17)) >>> 0;
    a = (a ^ (a << 5)) >>> 0;
    bytes[i] = a & 0xff;
  }
  return bytes;
}

const hashes = new Map<string, string>();
function attachmentRef(id: string, c: number, spec: SyntheticBackup): AttachmentRef {
  const key = `${c}:${spec.attachmentBytes}`;
  let sha256 = hashes.get(key);
  if (sha256 === undefined) hashes.set(key, (sha256 = createHash('sha256').update(attachmentBytes(c, spec.attachmentBytes)).digest('hex')));
  return { id: `${id}-a`, name: `scan-${c + 1}.png`, type: 'image/png', size: spec.attachmentBytes, sha256, kind: 'image' };
}

function* attachmentLines(ids: readonly string[], spec: SyntheticBackup): Generator<string> {
  for (const [c, id] of ids.entries()) {
    const ref = attachmentRef(id, c, spec);
    hashes.delete(`${c}:${spec.attachmentBytes}`);
    yield JSON.stringify({ ...ref, v: 1, createdAt: DAY + c, data: attachmentBytes(c, spec.attachmentBytes).toString('base64') });
  }
}

function prose(c: number, seq: number, bytes: number): string {
  const words: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const word = WORDS[(c * 7 + seq * 13 + i * 31) % WORDS.length]!;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ');
}
