import { afterEach, describe, expect, test, vi } from 'vitest';
import { BatchResult, DecideResult, Response, WorkerEvent, type IntentInput } from './protocol.ts';
import type { ApprovalRuleDraft } from '../engine/records/index.ts';
import { readBatchResult } from './option-calls.ts';
import { AgentAbortError, AgentError } from './agent-error.ts';
import { readDecideResult, readResponse, readWorkerEvent } from './worker-guards.ts';
import { START_AGENT } from './start-agent.ts';
import { WorkerClient, type AgentWorker } from './worker-client.ts';

/** The page reads worker messages with hand-written guards; they must agree with the protocol's schemas. */
const samples: unknown[] = [
  { type: 'ready', tabId: 't' },
  { type: 'ready' },
  { type: 'approval_requested', pausePointId: 'p', conversationId: 'c', title: 'T' },
  { type: 'approval_requested', pausePointId: 'p', conversationId: 'c', title: 7 },
  { type: 'approval_requested', pausePointId: 'p', conversationId: 'c', title: 'T', extra: true },
  { type: 'run_failed', conversationId: 'c', message: 'The browser ran out of storage space.' },
  { type: 'run_failed', conversationId: 'c' },
  { type: 'other' },
  { id: 1, ok: true, value: { conversationId: 'c' } },
  { id: 1, ok: true },
  { id: 1.5, ok: true, value: null },
  { id: '1', ok: true, value: null },
  { id: 2, ok: false, error: { name: 'E', message: 'm' } },
  { id: 2, ok: false, error: { name: 'E', message: 'm', code: 'c' } },
  { id: 2, ok: false, error: { name: 'E', message: 'm', code: 3 } },
  { id: 2, ok: false, error: { name: 'E' } },
  { id: 2, ok: 'yes', value: 1 },
  { outcome: 'decided' },
  { outcome: 'not_found' },
  { outcome: 'expired' },
  { outcome: 'invalid', message: 'bad' },
  { outcome: 'invalid' },
  { outcome: 'already_decided', status: 'resolved' },
  { outcome: 'already_decided', status: 'resolved', decidedBy: { tabId: 't', deviceId: 'd', label: 'l' } },
  { outcome: 'already_decided', status: 'resolved', decidedBy: { tabId: 't' } },
  { outcome: 'already_decided', status: 'resolved', decidedBy: { tabId: 't', deviceId: 'd', label: 'Phone', via: 'sync' } },
  { outcome: 'sent', owner: 'Laptop' },
  { outcome: 'sent' },
  { outcome: 'queued' },
  { outcome: 'changed' },
  { outcome: 'already_decided', status: 'gone' },
  { outcome: '__proto__' },
  { batchId: 'b', cards: [] },
  { batchId: 'b', cards: [{ pausePointId: 'p', result: { outcome: 'decided' } }, { pausePointId: 'q', result: { outcome: 'already_decided', status: 'expired' } }] },
  { batchId: 'b', cards: [{ pausePointId: 'p', result: { outcome: 'failed', message: 'The browser ran out of storage space.' } }] },
  { batchId: 'b', cards: [{ pausePointId: 'p', result: { outcome: 'failed' } }] },
  { batchId: 'b', cards: [{ pausePointId: 'p', result: { outcome: 'maybe' } }] },
  { batchId: 'b', cards: [{ pausePointId: 'p', result: { outcome: 'changed' } }] },
  { batchId: 'b', cards: [{ result: { outcome: 'decided' } }] },
  { batchId: 'b', cards: {} },
  { cards: [] },
  null,
  'text',
  [],
];

describe('worker message guards', () => {
  test.each(samples.map((s) => [JSON.stringify(s), s]))('%s', (_name, sample) => {
    const event = WorkerEvent.safeParse(sample);
    expect(readWorkerEvent(sample)).toEqual(event.success ? event.data : null);
    const response = Response.safeParse(sample);
    expect(readResponse(sample)).toEqual(response.success ? response.data : null);
    const result = DecideResult.safeParse(sample);
    expect(readDecideResult(sample)).toEqual(result.success ? result.data : null);
    const batch = BatchResult.safeParse(sample);
    expect(readBatchResult(sample)).toEqual(batch.success ? batch.data : null);
  });
});

/** A worker that records what the page posts and answers only when told to. */
class FakeWorker implements AgentWorker {
  readonly posted: { id: number; intent: IntentInput }[] = [];
  /** How many times the page said to start the agent (START_AGENT). */
  starts = 0;
  readonly #listeners: ((event: MessageEvent<unknown>) => void)[] = [];
  postMessage(message: { id: number; intent: IntentInput } | typeof START_AGENT): void {
    if (message === START_AGENT) this.starts++;
    else this.posted.push(message);
  }
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
  addEventListener(type: string, listener: (event: never) => void): void {
    // Only messages (the overload above says what a 'message' listener takes): these tests never fail the worker.
    if (type === 'message') this.#listeners.push(listener as (event: MessageEvent<unknown>) => void);
  }
  answer(data: unknown): void {
    for (const listener of this.#listeners) listener(new MessageEvent('message', { data }));
  }
}

function connect() {
  const worker = new FakeWorker();
  return { worker, client: new WorkerClient(() => worker) };
}

describe('WorkerClient calls', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('start() says to start the agent once, however often it is called, and sends no intent', () => {
    const { worker, client } = connect();
    client.start();
    client.start();
    expect(worker.starts).toBe(1);
    expect(worker.posted).toEqual([]);
  });

  test('answers a call with the worker\'s response to its id', async () => {
    const { worker, client } = connect();
    const sent = client.send(null, 'Hello');
    expect(worker.posted).toEqual([{ id: 1, intent: { type: 'send', conversationId: null, text: 'Hello' } }]);
    worker.answer({ id: 1, ok: true, value: { conversationId: 'c1' } });
    await expect(sent).resolves.toEqual({ conversationId: 'c1' });
  });

  test('a signal aborted before the call rejects it with AgentAbortError and sends nothing', async () => {
    const { worker, client } = connect();
    const controller = new AbortController();
    controller.abort();
    const error = await client.send('c1', 'Hello', undefined, controller.signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentAbortError);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(worker.posted).toEqual([]);
  });

  test('aborting after the call is sent rejects it at once and drops its pending entry', async () => {
    vi.useFakeTimers();
    const { worker, client } = connect();
    const controller = new AbortController();
    const decided = client.decide('p1', { type: 'approve', viewHash: 'a'.repeat(64) }, controller.signal);
    expect(worker.posted).toHaveLength(1);
    controller.abort();
    await expect(decided).rejects.toBeInstanceOf(AgentAbortError);

    // The late answer finds nothing waiting, and the timeout went with the entry: nothing else rejects.
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    worker.answer({ id: 1, ok: true, value: { outcome: 'decided' } });
    await vi.advanceTimersByTimeAsync(120_000);
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);

    // The next call gets the next id and its own answer.
    const stopped = client.stop('c1');
    expect(worker.posted[1]).toEqual({ id: 2, intent: { type: 'stop', conversationId: 'c1' } });
    worker.answer({ id: 2, ok: true, value: null });
    await expect(stopped).resolves.toBeUndefined();
  });

  test('aborting after the answer came changes nothing', async () => {
    const { worker, client } = connect();
    const controller = new AbortController();
    const created = client.createConversation('Notes', controller.signal);
    worker.answer({ id: 1, ok: true, value: { conversationId: 'c1' } });
    await expect(created).resolves.toEqual({ conversationId: 'c1' });
    controller.abort();
  });

  test('a worker that never answers still times out after 120 s', async () => {
    vi.useFakeTimers();
    const { client } = connect();
    const retried = client.retry('c1', new AbortController().signal);
    const outcome = expect(retried).rejects.toMatchObject({ name: 'TimeoutError' });
    await vi.advanceTimersByTimeAsync(120_000);
    await outcome;
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('WorkerClient sync calls', () => {
  const turnOn = { deviceName: 'Laptop', serverUrl: 'https://couch.example.com', database: 'pausepoint', username: '', password: '', passphrase: 'p' };

  test('each sync call posts its intent with its fields', async () => {
    const { worker, client } = connect();
    const calls = [
      client.sync.turnOn(turnOn),
      client.sync.turnOff(),
      client.sync.addDevice(),
      client.sync.join({ blob: 'b', code: 'ABCD', deviceName: 'Phone' }),
      client.sync.removeDevice('d2'),
      client.sync.renameDevice('Desk'),
      client.sync.retry(),
      client.sync.passphraseStrength('correct horse', ['ada']),
      client.sync.suggestPassphrase(),
    ];
    // Sent once the sync calls' module is loaded (on the first of them), in the order they were made.
    await vi.waitFor(() => expect(worker.posted).toHaveLength(9));
    expect(worker.posted.map((p) => p.intent)).toEqual([
      { type: 'syncTurnOn', ...turnOn },
      { type: 'syncTurnOff' },
      { type: 'syncAddDevice' },
      { type: 'syncJoin', blob: 'b', code: 'ABCD', deviceName: 'Phone' },
      { type: 'syncRemoveDevice', deviceId: 'd2' },
      { type: 'syncRenameDevice', name: 'Desk' },
      { type: 'syncRetry' },
      { type: 'syncPassphraseStrength', passphrase: 'correct horse', userInputs: ['ada'] },
      { type: 'syncSuggestPassphrase' },
    ]);
    const measured = { guesses: 1e6, strong: false, log10: 6, text: 'Too weak: one GPU offline guesses it in 2 minutes.' };
    const suggested = { phrase: 'abbot acid acorn acre', bits: 51.7 };
    const answers = [{ ok: true }, null, { link: 'https://app/#pair=x', code: 'C', expiresAt: 5 }, { ok: false, refusal: { kind: 'wrong_code', message: 'Wrong code.' } }, null, null, null, measured, suggested];
    answers.forEach((value, index) => worker.answer({ id: index + 1, ok: true, value }));
    await expect(Promise.all(calls)).resolves.toEqual([
      { ok: true },
      undefined,
      { link: 'https://app/#pair=x', code: 'C', expiresAt: 5 },
      { ok: false, refusal: { kind: 'wrong_code', message: 'Wrong code.' } },
      undefined,
      undefined,
      undefined,
      measured,
      suggested,
    ]);
  });

  test('an unreadable sync result or pairing invite rejects with a ProtocolError', async () => {
    const { worker, client } = connect();
    const joined = client.sync.join({ blob: 'b', code: 'C', deviceName: 'Phone' });
    const invited = client.sync.addDevice();
    const turnedOn = client.sync.turnOn(turnOn);
    await vi.waitFor(() => expect(worker.posted).toHaveLength(3));
    worker.answer({ id: 1, ok: true, value: { ok: false, refusal: { kind: 'nonsense', message: 'm' } } });
    worker.answer({ id: 2, ok: true, value: { link: 'l' } });
    worker.answer({ id: 3, ok: true, value: { ok: 'yes' } });
    await expect(joined).rejects.toMatchObject({ name: 'ProtocolError' });
    await expect(invited).rejects.toMatchObject({ name: 'ProtocolError' });
    await expect(turnedOn).rejects.toMatchObject({ name: 'ProtocolError' });
  });
});

describe('WorkerClient MCP calls', () => {
  test('each MCP call posts its intent with its fields, and reads its answer', async () => {
    const { worker, client } = connect();
    const draft = { url: 'https://mcp.example/mcp', name: 'Words' };
    const calls = [
      client.mcp.add(draft),
      client.mcp.setEnabled('s1', false),
      client.mcp.setTrusted('s1', true),
      client.mcp.setToolEnabled('s1', 'echo', false),
      client.mcp.remove('s1'),
      client.mcp.beginSignIn('s1', 'https://app/mcp-oauth-callback'),
      client.mcp.finishSignIn('s1', 'code', 'state', null),
      client.mcp.signOut('s1'),
    ];
    // Sent once the MCP calls' module is loaded (on the first of them), in the order they were made.
    await vi.waitFor(() => expect(worker.posted).toHaveLength(8));
    expect(worker.posted.map((p) => p.intent)).toEqual([
      { type: 'mcpAdd', ...draft },
      { type: 'mcpSetEnabled', serverId: 's1', enabled: false },
      { type: 'mcpSetTrusted', serverId: 's1', trusted: true },
      { type: 'mcpSetToolEnabled', serverId: 's1', toolName: 'echo', enabled: false },
      { type: 'mcpRemove', serverId: 's1' },
      { type: 'mcpBeginSignIn', serverId: 's1', redirectUrl: 'https://app/mcp-oauth-callback' },
      { type: 'mcpFinishSignIn', serverId: 's1', code: 'code', state: 'state', iss: null },
      { type: 'mcpSignOut', serverId: 's1' },
    ]);
    const answers = [{ serverId: 's1' }, null, null, null, null, { kind: 'redirect', authorizationUrl: 'https://auth.example/a', state: 'st' }, null, { revoked: 'yes' }];
    answers.forEach((value, index) => worker.answer({ id: index + 1, ok: true, value }));
    await expect(Promise.all(calls)).resolves.toEqual([
      { serverId: 's1' },
      undefined,
      undefined,
      undefined,
      undefined,
      { kind: 'redirect', authorizationUrl: 'https://auth.example/a', state: 'st' },
      undefined,
      { revoked: 'yes' },
    ]);
  });

  test('an unreadable server id, sign-in start or sign-out answer rejects with a ProtocolError', async () => {
    const { worker, client } = connect();
    const added = client.mcp.add({ url: 'https://mcp.example/mcp', name: 'Words' });
    const started = client.mcp.beginSignIn('s1', 'https://app/mcp-oauth-callback');
    const signedOut = client.mcp.signOut('s1');
    await vi.waitFor(() => expect(worker.posted).toHaveLength(3));
    worker.answer({ id: 1, ok: true, value: { serverId: 7 } });
    worker.answer({ id: 2, ok: true, value: { kind: 'redirect', authorizationUrl: 'https://auth.example/a' } });
    worker.answer({ id: 3, ok: true, value: { revoked: 'failed' } });
    await expect(added).rejects.toMatchObject({ name: 'ProtocolError' });
    await expect(started).rejects.toMatchObject({ name: 'ProtocolError' });
    await expect(signedOut).rejects.toMatchObject({ name: 'ProtocolError' });
  });
});

describe('WorkerClient occasional calls (rules, options, a batch, listing models)', () => {
  const draft: ApprovalRuleDraft = { effect: 'allow', tool: 'list_notes', match: [], scope: { kind: 'everywhere' }, source: 'settings' };

  test('each posts its intent with its fields once option-calls.ts is loaded, and reads its answer', async () => {
    const { worker, client } = connect();
    const endpoint = { provider: 'openai', baseUrl: 'https://api.example/v1', apiKey: 'k' };
    const calls = [
      client.decideBatch(['p1', 'p2'], { type: 'approve' }, ['a'.repeat(64), 'b'.repeat(64)]),
      client.setConversationInstructions('c1', 'Be brief.'),
      client.addRule(draft),
      client.previewRule(draft),
      client.makeRuleActive('r1'),
      client.removeRule('r1'),
      client.enableRule('r1'),
      client.disableRule('r1'),
      client.setAlwaysAllowIrreversible(true),
      client.setAskForEverything(false),
      client.listModels(endpoint),
      client.editMessage('c1', 'm1', 'new words'),
      client.regenerate('c1'),
      client.switchVersion('c1', 'b1'),
    ];
    // Sent once the module is loaded (on the first of them), in the order they were made.
    await vi.waitFor(() => expect(worker.posted).toHaveLength(14));
    expect(worker.posted.map((p) => p.intent)).toEqual([
      { type: 'decideBatch', pausePointIds: ['p1', 'p2'], decision: { type: 'approve' }, viewHashes: ['a'.repeat(64), 'b'.repeat(64)] },
      { type: 'setConversationInstructions', conversationId: 'c1', instructions: 'Be brief.' },
      { type: 'addRule', draft },
      { type: 'previewRule', draft },
      { type: 'makeRuleActive', ruleId: 'r1' },
      { type: 'removeRule', ruleId: 'r1' },
      { type: 'enableRule', ruleId: 'r1' },
      { type: 'disableRule', ruleId: 'r1' },
      { type: 'setAlwaysAllowIrreversible', on: true },
      { type: 'setAskForEverything', on: false },
      { type: 'listModels', ...endpoint },
      { type: 'editMessage', conversationId: 'c1', messageId: 'm1', text: 'new words' },
      { type: 'regenerate', conversationId: 'c1' },
      { type: 'switchVersion', conversationId: 'c1', branchId: 'b1' },
    ]);
    const batch = { batchId: 'b', cards: [{ pausePointId: 'p1', result: { outcome: 'decided' } }] };
    const preview = { decided: 1, of: 2, examples: [{ at: 5, conversationId: 'c1', toolCallId: 't1', toolName: 'list_notes', args: {} }] };
    const answers = [batch, null, { ruleId: 'r1' }, preview, null, null, null, null, null, null, ['gpt', 7], null, null, null];
    answers.forEach((value, index) => worker.answer({ id: index + 1, ok: true, value }));
    const none = undefined;
    await expect(Promise.all(calls)).resolves.toEqual([batch, none, { ruleId: 'r1' }, preview, none, none, none, none, none, none, ['gpt'], none, none, none]);
  });

  test('an unreadable batch, rule id or preview rejects with a ProtocolError', async () => {
    const { worker, client } = connect();
    const batched = client.decideBatch(['p1'], { type: 'approve' }, ['a'.repeat(64)]);
    const added = client.addRule(draft);
    const previewed = client.previewRule(draft);
    await vi.waitFor(() => expect(worker.posted).toHaveLength(3));
    worker.answer({ id: 1, ok: true, value: { batchId: 'b' } });
    worker.answer({ id: 2, ok: true, value: { ruleId: 7 } });
    worker.answer({ id: 3, ok: true, value: { decided: -1, of: 2, examples: [] } });
    await expect(batched).rejects.toMatchObject({ name: 'ProtocolError' });
    await expect(added).rejects.toMatchObject({ name: 'ProtocolError' });
    await expect(previewed).rejects.toMatchObject({ name: 'ProtocolError' });
  });

  test('a call with an aborted signal rejects with an AbortError and posts nothing', async () => {
    const { worker, client } = connect();
    const controller = new AbortController();
    controller.abort();
    await expect(client.addRule(draft, controller.signal)).rejects.toBeInstanceOf(AgentAbortError);
    expect(worker.posted).toEqual([]);
  });
});
