import { generateText, tool, type ModelMessage, type ToolApprovalResponse } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { SYSTEM_PROMPT } from '../../src/engine/system-prompt.ts';
import type { ConversationRunner, RunnerFactory } from './conversation-runner.ts';
import { Executions, finalAnswer, scriptedReply, TOOL_DESCRIPTION, TOOL_NAME, userText, viewOf } from './scripted-turns.ts';

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type PromptMessage = CallOptions['prompt'][number];

const USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** The scripted model as a LanguageModelV3, through the mock `ai/test` provides for exactly this. */
function instantModel(): MockLanguageModelV3 {
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doGenerate: async (options) => {
      // The mock keeps every request; a 400-call bench would otherwise hold every prompt alive.
      model.doGenerateCalls.length = 0;
      const reply = scriptedReply(viewOf(options.prompt, readPrompt));
      if (reply.kind === 'text') {
        return { content: [{ type: 'text', text: reply.text }], finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE, warnings: [] };
      }
      return {
        content: [{ type: 'tool-call', toolCallId: reply.callId, toolName: reply.name, input: JSON.stringify(reply.args) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: USAGE,
        warnings: [],
      };
    },
  });
  return model;
}

function readPrompt(message: PromptMessage): { toolResult: boolean; userText?: string } {
  if (message.role === 'tool') return { toolResult: message.content.some((part) => part.type === 'tool-result') };
  if (message.role !== 'user') return { toolResult: false };
  return { toolResult: false, userText: message.content.map((part) => (part.type === 'text' ? part.text : '')).join('') };
}

/** The approval the SDK asked for, found in the stored messages as `collectToolApprovals` would. */
function pendingApprovalId(messages: readonly ModelMessage[]): string | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'assistant' || typeof last.content === 'string') return undefined;
  return last.content.find((part) => part.type === 'tool-approval-request')?.approvalId;
}

/**
 * Stand-in storage for the paused conversation: what an app would write and
 * read back. The value was produced one line earlier by this code, so the
 * parsed text is of the type that was stringified.
 */
function storeAndReadBack(messages: readonly ModelMessage[]): ModelMessage[] {
  return JSON.parse(JSON.stringify(messages)) as ModelMessage[];
}

class AiSdkRunner implements ConversationRunner {
  readonly name = 'ai 6.0.326';
  readonly #executions = new Executions();
  readonly #model = instantModel();
  readonly #tools = {
    [TOOL_NAME]: tool({
      description: TOOL_DESCRIPTION,
      inputSchema: z.object({ amount: z.number().positive(), to: z.string().min(1) }),
      needsApproval: true,
      execute: async (args) => this.#executions.record(args),
    }),
  };
  #messages: ModelMessage[] = [];

  async playTurn(turn: number): Promise<void> {
    const asked: ModelMessage[] = [...this.#messages, { role: 'user', content: userText(turn) }];
    const paused = await generateText({ model: this.#model, system: SYSTEM_PROMPT, tools: this.#tools, messages: asked });
    const stored = storeAndReadBack([...asked, ...paused.response.messages]);
    const approvalId = pendingApprovalId(stored);
    if (!approvalId) throw new Error(`${this.name}, turn ${turn}: no tool-approval-request in the stored messages.`);
    const approval: ToolApprovalResponse = { type: 'tool-approval-response', approvalId, approved: true };
    const resumedWith: ModelMessage[] = [...stored, { role: 'tool', content: [approval] }];
    const resumed = await generateText({ model: this.#model, system: SYSTEM_PROMPT, tools: this.#tools, messages: resumedWith });
    if (resumed.text !== finalAnswer(turn)) throw new Error(`${this.name}, turn ${turn}: final text ${JSON.stringify(resumed.text)}.`);
    this.#messages = [...resumedWith, ...resumed.response.messages];
  }

  async finish(turns: number): Promise<void> {
    this.#executions.check(this.name, turns);
  }
}

export const aiSdk: RunnerFactory = async () => new AiSdkRunner();
