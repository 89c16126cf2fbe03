import {
  Agent,
  Runner,
  RunState,
  setTracingDisabled,
  tool,
  Usage,
  user,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type protocol,
} from '@openai/agents';
import { z } from 'zod';
import { SYSTEM_PROMPT } from '../../src/engine/system-prompt.ts';
import type { ConversationRunner, RunnerFactory } from './conversation-runner.ts';
import { Executions, finalAnswer, scriptedReply, TOOL_DESCRIPTION, TOOL_NAME, userText, viewOf } from './scripted-turns.ts';

/** The scripted model behind @openai/agents' Model interface: no provider, no HTTP. */
class InstantAgentsModel implements Model {
  #responses = 0;

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const items: AgentInputItem[] = typeof request.input === 'string' ? [user(request.input)] : request.input;
    const reply = scriptedReply(viewOf(items, readItem));
    const id = `resp_${++this.#responses}`;
    const output: protocol.OutputModelItem[] =
      reply.kind === 'call'
        ? [{ type: 'function_call', id, callId: reply.callId, name: reply.name, arguments: JSON.stringify(reply.args), status: 'completed' }]
        : [{ type: 'message', id, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text }] }];
    return { output, usage: new Usage(), responseId: id };
  }

  getStreamedResponse(): AsyncIterable<protocol.StreamEvent> {
    throw new Error('The bench runs @openai/agents without streaming.');
  }
}

function readItem(item: AgentInputItem): { toolResult: boolean; userText?: string } {
  if (item.type === 'function_call_result') return { toolResult: true };
  if (!('role' in item) || item.role !== 'user') return { toolResult: false };
  const { content } = item;
  const text = typeof content === 'string' ? content : content.map((part) => (part.type === 'input_text' ? part.text : '')).join('');
  return { toolResult: false, userText: text };
}

class OpenAIAgentsRunner implements ConversationRunner {
  readonly name = '@openai/agents 0.14.3';
  readonly #executions = new Executions();
  readonly #runner = new Runner({ tracingDisabled: true });
  readonly #agent: Agent;
  /** The conversation so far, as the SDK hands it back after each run. */
  #history: AgentInputItem[] = [];

  constructor() {
    const transfer = tool({
      name: TOOL_NAME,
      description: TOOL_DESCRIPTION,
      parameters: z.object({ amount: z.number().positive(), to: z.string().min(1) }),
      needsApproval: true,
      execute: async (args) => this.#executions.record(args),
    });
    this.#agent = new Agent({ name: 'Bench', instructions: SYSTEM_PROMPT, model: new InstantAgentsModel(), tools: [transfer] });
  }

  async playTurn(turn: number): Promise<void> {
    const agent = this.#agent;
    const paused = await this.#runner.run(agent, [...this.#history, user(userText(turn))]);
    // The pause as the docs persist it: RunState to a string, restored before deciding.
    const stored = paused.state.toString();
    const state = await RunState.fromString(agent, stored);
    const interruptions = state.getInterruptions();
    const [approval] = interruptions;
    if (!approval || interruptions.length !== 1) throw new Error(`${this.name}, turn ${turn}: expected one interruption, found ${interruptions.length}.`);
    state.approve(approval);
    const resumed = await this.#runner.run(agent, state);
    if (resumed.finalOutput !== finalAnswer(turn)) throw new Error(`${this.name}, turn ${turn}: final output ${String(resumed.finalOutput)}.`);
    this.#history = resumed.history;
  }

  async finish(turns: number): Promise<void> {
    this.#executions.check(this.name, turns);
  }
}

export const openAIAgents: RunnerFactory = async () => {
  setTracingDisabled(true);
  return new OpenAIAgentsRunner();
};
