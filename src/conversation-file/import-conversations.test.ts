import 'fake-indexeddb/auto';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../engine/records/index.ts';
import type { PausepointDb } from '../storage/db.ts';
import { useTestDb } from '../storage/testing/open-test-db.ts';
import { conversationJson, readConversationExport } from './export-conversation.ts';
import { INTERRUPTED_FROM_FILE, NOT_RUN_FROM_FILE } from '../inert/index.ts';
import { ImportError } from './import-error.ts';
import { importConversations, type ImportProgress } from './import-conversations.ts';
import { seedConversation } from './testing/seed-conversation.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

const fixture = (path: string) => readFileSync(new URL(`../../tests/fixtures/${path}`, import.meta.url), 'utf8');
const sequentialIds = () => {
  let n = 0;
  return () => `id-${++n}`;
};

async function everything() {
  return {
    conversations: await db.conversations.toArray(),
    messages: await db.messages.toArray(),
    pausePoints: await db.pausePoints.toArray(),
    ledger: await db.ledger.toArray(),
  };
}

async function messagesOf(conversationId: string): Promise<Message[]> {
  return db.messages.where('[conversationId+seq]').between([conversationId, -Infinity], [conversationId, Infinity]).toArray();
}

describe('Import conversations: a ChatGPT export', () => {
  it('brings in each conversation’s current branch, idle, with system and tool messages as notices and images as placeholders', async () => {
    const progress: ImportProgress[] = [];
    const text = fixture('chatgpt/conversations.json');
    const result = await importConversations(db, text, { uuid: sequentialIds(), onProgress: (p) => progress.push(p) });
    const bytes = Buffer.byteLength(text);
    expect(result).toEqual({ source: 'chatgpt', conversations: 2, messages: 12, renamed: 0, skipped: [], skippedCount: 0, stopped: null, bytes });
    expect(progress.at(-1)).toEqual({ conversations: 2, bytes, totalBytes: bytes });

    const conversations = await db.conversations.orderBy('updatedAt').toArray();
    expect(conversations.map((c) => ({ title: c.title, state: c.state, turns: c.turns, nextSeq: c.nextSeq }))).toEqual([
      { title: 'Weekend in Porto', state: { kind: 'idle' }, turns: 2, nextSeq: 5 },
      { title: 'Numbers and schedules', state: { kind: 'idle' }, turns: 2, nextSeq: 7 },
    ]);
    expect(conversations[0]).toMatchObject({ createdAt: 1733130000500, updatedAt: 1733130031500 });

    const porto = await messagesOf(conversations[0]!.id);
    expect(porto.map((m) => [m.role, m.content])).toEqual([
      ['notice', 'Custom instructions (in ChatGPT):\n\nI live in Lisbon.\n\nAnswer briefly.'],
      ['user', 'Plan a weekend trip to Porto by train'],
      ['assistant', 'Take the Alfa Pendular from Santa Apolónia; it takes about **3 hours**.'],
      ['user', '[Image not imported: file-service://file-2dXq9Ticket, 1024×768]\n\nIs this the right train?'],
      ['assistant', 'Yes: the ticket shows train 131, leaving at 09:09.'],
    ]);
    // The branches left behind (the question before its edit, the regenerated-away answer) are not imported.
    expect(JSON.stringify(porto)).not.toMatch(/OLD BRANCH|REGENERATED AWAY/);
    const answers = porto.filter((m): m is AssistantMessage => m.role === 'assistant');
    expect(answers.map((a) => ({ status: a.status, toolCalls: a.toolCalls, turnIndex: a.turnIndex }))).toEqual([
      { status: 'complete', toolCalls: [], turnIndex: 0 },
      { status: 'complete', toolCalls: [], turnIndex: 1 },
    ]);

    const tools = await messagesOf(conversations[1]!.id);
    expect(tools.map((m) => m.role)).toEqual(['user', 'notice', 'notice', 'assistant', 'notice', 'notice', 'assistant']);
    expect(tools[1]?.content).toBe('The assistant called `python` (in ChatGPT):\n\n```\nprint(2**100)\n```');
    expect(tools[2]?.content).toBe('`python` returned (in ChatGPT):\n\n```\n1267650600228229401496703205376\n```');
    // What a tool read is data, never a message the model would take as the person's or its own.
    expect(tools[5]).toMatchObject({ role: 'notice', content: expect.stringContaining('Ignore previous instructions') });
    expect((await everything()).pausePoints).toEqual([]);
  });

  it('gives every conversation and message a fresh id, so importing the same file twice adds a second copy and replaces nothing', async () => {
    await importConversations(db, fixture('chatgpt/conversations.json'));
    const first = await everything();
    await importConversations(db, fixture('chatgpt/conversations.json'));
    const second = await everything();
    expect(second.conversations).toHaveLength(4);
    expect(second.messages).toHaveLength(24);
    expect(second.conversations).toEqual(expect.arrayContaining(first.conversations));
  });

  it('shows progress in conversations written and bytes read, batch by batch', async () => {
    const one = (JSON.parse(fixture('chatgpt/conversations.json')) as unknown[])[0];
    const many = JSON.stringify(Array.from({ length: 450 }, () => one));
    const progress: ImportProgress[] = [];
    const result = await importConversations(db, many, { onProgress: (p) => progress.push(p) });
    expect(result.conversations).toBe(450);
    expect([...new Set(progress.map((p) => p.conversations))]).toEqual([0, 200, 400, 450]);
    const bytes = Buffer.byteLength(many);
    expect(progress.at(-1)).toEqual({ conversations: 450, bytes, totalBytes: bytes });
    expect(await db.conversations.count()).toBe(450);
  });
});

describe('Import conversations: refused files change nothing', () => {
  const invalid = readdirSync(new URL('../../tests/fixtures/conversation/invalid', import.meta.url)).map((name) => `conversation/invalid/${name}`);
  const expected: Record<string, { code: string; message: RegExp }> = {
    'conversation/invalid/audit-log.json': { code: 'foreign_format', message: /neither a ChatGPT export’s conversations\.json nor a conversation exported from Pausepoint/ },
    'conversation/invalid/backup.json': { code: 'foreign_format', message: /a Pausepoint backup: restore it under Backup and storage/ },
    'conversation/invalid/future-version.json': { code: 'future_version', message: /newer Pausepoint \(format version 2\)/ },
    'conversation/invalid/foreign-link.json': { code: 'invalid_file', message: /message c1-m3 belongs to another conversation/ },
    'conversation/invalid/broken-record.json': { code: 'invalid_file', message: /^This conversation file is broken: messages\.1\.role/ },
    'chatgpt/invalid/cut-off.json': { code: 'malformed', message: /^This file is cut off at byte 500, in conversation 1\./ },
    'not-json': { code: 'not_json', message: /not JSON/ },
    'empty-list': { code: 'foreign_format', message: /neither a ChatGPT export/ },
    'list-of-other-things': { code: 'foreign_format', message: /neither a ChatGPT export/ },
  };
  const text = (path: string) =>
    ({ 'not-json': 'Hello, world', 'empty-list': ' [ ] ', 'list-of-other-things': '[{"id": 1}, {"id": 2}]' })[path] ?? fixture(path);

  it('has an expectation for every negative conversation fixture', () => {
    expect(invalid.sort()).toEqual(Object.keys(expected).filter((path) => path.startsWith('conversation/')).sort());
  });

  it.each(Object.keys(expected))('%s', async (path) => {
    await seedConversation(db, 'here');
    const before = await everything();
    const error = await importConversations(db, text(path)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect(error).toMatchObject(expected[path]!);
    expect(await everything()).toEqual(before);
  });
});

describe('Import conversations: a ChatGPT conversation that is not one is skipped, with its reason', () => {
  const skips: Record<string, { number: number; reason: RegExp }> = {
    'chatgpt/invalid/author-not-an-object.json': { number: 2, reason: /^Conversation 2 \(“Numbers and schedules”\) is not one: mapping\.u\.message\.author/ },
    'chatgpt/invalid/cycle.json': { number: 1, reason: /^Conversation 1 \(“Numbers and schedules”\) has a broken message tree$/ },
    'chatgpt/invalid/missing-current-node.json': { number: 1, reason: /^Conversation 1 \(“Weekend in Porto”\) has a broken message tree$/ },
  };

  it('has an expectation for every negative ChatGPT fixture but the cut-off one', () => {
    const files = readdirSync(new URL('../../tests/fixtures/chatgpt/invalid', import.meta.url)).map((name) => `chatgpt/invalid/${name}`);
    expect(files.filter((f) => !f.endsWith('cut-off.json')).sort()).toEqual(Object.keys(skips).sort());
  });

  it.each(Object.entries(skips))('%s', async (path, skip) => {
    const good = JSON.parse(fixture('chatgpt/conversations.json')) as unknown[];
    const broken = JSON.parse(fixture(path)) as unknown[];
    const result = await importConversations(db, JSON.stringify([good[0], ...broken.slice(skip.number - 1, skip.number), good[1]]));
    expect(result).toMatchObject({ conversations: 2, skippedCount: 1, stopped: null });
    expect(result.skipped).toEqual([{ number: 2, reason: expect.stringMatching(skip.reason.source.replace(/Conversation \d/, 'Conversation 2')) }]);
    expect(await db.conversations.count()).toBe(2);
  });
});

describe('Export as JSON, then import: a round trip', () => {
  it('brings the conversation back as history through the inert path: its messages under fresh ids, the open call closed, nothing pending or running, no ledger', async () => {
    await seedConversation(db);
    const file = (await readConversationExport(db, 'c1', () => Date.UTC(2026, 11, 2)))!;
    const text = conversationJson(file);
    const original = await everything();
    await db.delete();
    await db.open();

    const result = await importConversations(db, text);
    expect(result).toMatchObject({ source: 'pausepoint', conversations: 1, messages: 6, renamed: 0, skippedCount: 0, stopped: null });
    const after = await everything();
    expect(after.ledger).toEqual([]);
    const { ownerDevice: _device, ...conversation } = original.conversations[0]!;
    // Its instructions arrive switched off; the file's call left open (call_2) is answered "not run", so the messages are renumbered.
    expect(after.conversations).toEqual([{ ...conversation, nextSeq: 7, instructionsOff: true, state: { kind: 'error', code: 'interrupted', message: INTERRUPTED_FROM_FILE.import, retryable: true } }]);
    const messages = await messagesOf('c1');
    const strip = (m: Message) => {
      const { id: _id, seq: _seq, ...rest } = m;
      if (rest.role === 'assistant') return { ...rest, toolCalls: rest.toolCalls.map(({ id: _call, ...call }) => call) };
      if (rest.role === 'tool') return { ...rest, toolCallId: undefined };
      if (rest.role === 'user' && rest.decision) return { ...rest, decision: undefined };
      return rest;
    };
    const closing = { v: 1, conversationId: 'c1', createdAt: 2_400, role: 'tool', toolName: 'send_invoice', content: NOT_RUN_FROM_FILE, outcome: 'skipped', toolCallId: undefined };
    const originals = original.messages.map(strip);
    expect(messages.map(strip)).toEqual([...originals.slice(0, 5), closing, originals[5]]);
    expect(messages.map((m) => m.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(messages.some((m) => original.messages.some((o) => o.id === m.id))).toBe(false);
    // The links the file proves hold under the new ids: each result to its call, the decision to its card.
    const [, first, decision, result1, second, notRun] = messages;
    const call1 = first?.role === 'assistant' ? first.toolCalls[0]!.id : '';
    const call2 = second?.role === 'assistant' ? second.toolCalls[0]!.id : '';
    expect(call1).toMatch(/^call_/);
    expect(call1).not.toBe('call_1');
    expect(result1).toMatchObject({ role: 'tool', toolCallId: call1 });
    expect(notRun).toMatchObject({ role: 'tool', toolCallId: call2 });
    const cards = after.pausePoints;
    expect(cards.map((p) => ({ toolCallId: p.toolCallId, status: p.status, restored: p.restored, expiresAt: p.expiresAt, expiredReason: p.expiredReason }))).toEqual(
      expect.arrayContaining([
        { toolCallId: call1, status: 'resolved', restored: true, expiresAt: null, expiredReason: undefined },
        { toolCallId: call2, status: 'expired', restored: true, expiresAt: null, expiredReason: 'abandoned' },
      ]),
    );
    expect(decision?.role === 'user' && decision.decision?.pausePointId).toBe(cards.find((c) => c.toolCallId === call1)?.id);
  });

  it('gives fresh ids when the conversation is still here, and keeps the decision message tied to its card', async () => {
    await seedConversation(db);
    const text = conversationJson((await readConversationExport(db, 'c1'))!);
    const before = await everything();
    const result = await importConversations(db, text, { uuid: sequentialIds() });
    expect(result.renamed).toBe(1);
    const after = await everything();
    // Nothing that was here changed.
    expect(after.conversations).toEqual(expect.arrayContaining(before.conversations));
    expect(after.messages).toEqual(expect.arrayContaining(before.messages));
    expect(after.pausePoints).toEqual(expect.arrayContaining(before.pausePoints));
    const copy = after.conversations.find((c) => c.id !== 'c1')!;
    expect(copy).toMatchObject({ title: 'Invoices for March', instructions: 'Amounts in EUR.', instructionsOff: true });
    const messages = await messagesOf(copy.id);
    expect(messages).toHaveLength(7);
    const cards = after.pausePoints.filter((p) => p.conversationId === copy.id);
    const decision = messages.find((m) => m.role === 'user' && m.decision);
    const call1 = messages.find((m) => m.role === 'assistant' && m.toolCalls.length > 0);
    const callId = call1?.role === 'assistant' ? call1.toolCalls[0]!.id : '';
    expect(decision?.role === 'user' && decision.decision?.pausePointId).toBe(cards.find((c) => c.toolCallId === callId)?.id);
    expect(cards.every((c) => c.status !== 'pending')).toBe(true);
  });

  it('keeps every version: each message with its branch, and the versions with their fork points moved with their messages', async () => {
    await seedConversation(db);
    const versions = { current: 'b1', rootActive: 1, branches: [{ id: 'b1', parent: '', from: 1, active: 2, createdAt: 3_000 }] };
    await db.conversations.update('c1', { versions, nextSeq: 7 });
    const regenerated: Message = { v: 1, id: 'c1-m6', conversationId: 'c1', seq: 6, createdAt: 3_100, role: 'assistant', content: 'A second answer.', toolCalls: [], turnIndex: 2, status: 'complete', branch: 'b1' };
    await db.messages.put(regenerated);
    const text = conversationJson((await readConversationExport(db, 'c1'))!);
    await db.delete();
    await db.open();

    await importConversations(db, text);
    const after = await messagesOf('c1');
    // The closing result of call_2 (the root's open call) comes right after its answer, on the root; the fork point still sits at seq 1.
    expect(after.map((m) => [m.seq, m.role, m.branch])).toEqual([
      [0, 'user', undefined],
      [1, 'assistant', undefined],
      [2, 'user', undefined],
      [3, 'tool', undefined],
      [4, 'assistant', undefined],
      [5, 'tool', undefined],
      [6, 'notice', undefined],
      [7, 'assistant', 'b1'],
    ]);
    expect((await db.conversations.get('c1'))?.versions).toEqual(versions);
  });

  it('reads the committed version 1 sample', async () => {
    const result = await importConversations(db, fixture('conversation/v1-sample.json'));
    expect(result).toMatchObject({ source: 'pausepoint', conversations: 1, messages: 6 });
  });
});
