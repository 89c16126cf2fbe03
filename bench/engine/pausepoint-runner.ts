import { z } from 'zod';
import { Engine } from '../../src/engine/engine.ts';
import type { ModelPort, ModelRequest, ModelResult } from '../../src/engine/model-port.ts';
import type { NetworkPort } from '../../src/engine/network-port.ts';
import type { StoragePort } from '../../src/engine/storage-port.ts';
import type { ToolDefinition } from '../../src/engine/tool-definition.ts';
import type { DecidedBy } from '../../src/engine/records/index.ts';
import { MemoryLocks } from '../../src/engine/testing/memory-locks.ts';
import { randomIds, systemClock } from '../../src/worker/browser-runtime.ts';
import type { ConversationRunner } from './conversation-runner.ts';
import { Executions, finalAnswer, scriptedReply, TOOL_DESCRIPTION, TOOL_NAME, userText, viewOf } from './scripted-turns.ts';

/*
 * Our runner of the scripted conversation, over whichever storage port it is
 * given. Apart from run-pausepoint.ts, which installs fake-indexeddb for Node:
 * this file is also bundled into a page (bench/engine/chromium/), where the
 * same runner plays on Chromium's own IndexedDB.
 */

/** The scripted model at our port: answers at once, without streaming delays. */
class InstantModel implements ModelPort {
  async complete(request: ModelRequest): Promise<ModelResult> {
    const reply = scriptedReply(
      viewOf(request.messages, (m) => ({ toolResult: m.role === 'tool', userText: m.role === 'user' && typeof m.content === 'string' ? m.content : undefined })),
    );
    if (reply.kind === 'text') {
      request.onText(reply.text);
      return { content: reply.text, toolCalls: [], finishReason: 'stop' };
    }
    return {
      content: '',
      toolCalls: [{ id: reply.callId, name: reply.name, arguments: JSON.stringify(reply.args) }],
      finishReason: 'tool_calls',
    };
  }
}

function transferTool(executions: Executions): ToolDefinition {
  const input = z.object({ amount: z.number().positive(), to: z.string().min(1) });
  return {
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    input,
    gate: (args) => ({ title: `Send ${args.amount} to ${args.to}?`, description: 'Money leaves your account.' }),
    execute: async (args) => executions.record(args),
  } satisfies ToolDefinition<typeof input>;
}

const alwaysOnline: NetworkPort = { isOnline: () => true, whenOnline: async () => {} };
const decidedBy: DecidedBy = { tabId: 'bench-tab', deviceId: 'bench-device', label: 'bench' };

export class PausepointRunner implements ConversationRunner {
  readonly #executions = new Executions();
  readonly #errors: unknown[] = [];
  readonly #engine: Engine;
  #conversationId = '';

  constructor(
    readonly name: string,
    private readonly storage: StoragePort,
    private readonly close: () => Promise<void>,
  ) {
    this.#engine = new Engine({
      storage,
      model: () => new InstantModel(),
      tools: [transferTool(this.#executions)],
      clock: systemClock,
      ids: randomIds,
      network: alwaysOnline,
      locks: new MemoryLocks(),
      owner: 'bench-tab',
      onError: (error) => this.#errors.push(error),
    });
  }

  async start(): Promise<this> {
    this.#conversationId = await this.#engine.createConversation('Bench');
    return this;
  }

  async playTurn(turn: number): Promise<void> {
    const engine = this.#engine;
    await engine.send(this.#conversationId, userText(turn));
    await engine.whenIdle();
    this.#throwIfFailed(turn);
    // The pause as another tab (or this one after a reload) would find it: read back from storage,
    // with the query the approvals inbox and the engine use (pending ones only, not the decided audit trail).
    const pending = await this.storage.listPendingPausePoints(this.#conversationId);
    const [pause] = pending;
    if (!pause || pending.length !== 1) throw new Error(`${this.name}, turn ${turn}: expected one pending pause point, found ${pending.length}.`);
    const decided = await engine.decide(pause.id, { type: 'approve' }, decidedBy);
    if (decided.outcome !== 'decided') throw new Error(`${this.name}, turn ${turn}: decide returned ${decided.outcome}.`);
    await engine.whenIdle();
    this.#throwIfFailed(turn);
  }

  async finish(turns: number): Promise<void> {
    this.#executions.check(this.name, turns);
    const conversation = await this.storage.getConversation(this.#conversationId);
    if (conversation?.state.kind !== 'idle') throw new Error(`${this.name}: conversation ended ${conversation?.state.kind ?? 'missing'}, not idle.`);
    const messages = await this.storage.listMessages(this.#conversationId);
    const answers = messages.filter((m) => m.role === 'assistant' && m.toolCalls.length === 0).map((m) => m.content);
    const expected = Array.from({ length: turns }, (_, i) => finalAnswer(i + 1));
    if (answers.join('\n') !== expected.join('\n')) throw new Error(`${this.name}: the stored final answers differ from the script.`);
    await this.close();
  }

  #throwIfFailed(turn: number): void {
    if (this.#errors.length > 0) throw new Error(`${this.name}, turn ${turn}: the engine failed`, { cause: this.#errors[0] });
  }
}

/** Our engine over any storage port (the profiler passes a timed wrapper). */
export function pausepointOver(name: string, storage: StoragePort, close: () => Promise<void> = async () => {}): Promise<ConversationRunner> {
  return new PausepointRunner(name, storage, close).start();
}
