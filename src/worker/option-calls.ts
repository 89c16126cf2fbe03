import type { AgentClient, IntentCall, SendIntent } from './agent-client.ts';
import type { BatchResult, IntentInput } from './protocol.ts';
import type { RulePreview } from '../engine/preview-rule.ts';
import { AgentError } from './agent-error.ts';
import { isObject, isString, readDecideResult } from './worker-guards.ts';

/** The calls only Settings, a rule's form and preview, the batch dialog, a conversation's options and its versions make. */
export type OptionCalls = Pick<
  AgentClient,
  | 'decideBatch'
  | 'setConversationInstructions'
  | 'addRule'
  | 'previewRule'
  | 'makeRuleActive'
  | 'removeRule'
  | 'enableRule'
  | 'disableRule'
  | 'setAlwaysAllowIrreversible'
  | 'setAskForEverything'
  | 'editMessage'
  | 'regenerate'
  | 'switchVersion'
> & { readonly listModels: IntentCall<'listModels'> };

/**
 * The page's occasional calls, each answer read by a hand-written guard as
 * WorkerClient reads the others. Loaded by WorkerClient on the first of them:
 * the first screen makes none (a card's own decision, with or without its rule,
 * stays in WorkerClient), so start-up does not pay for them (npm run size).
 */
export function optionCalls(send: SendIntent): OptionCalls {
  const nothing = async (intent: IntentInput, signal?: AbortSignal) => void (await send(intent, signal));
  return {
    decideBatch: async (pausePointIds, decision, viewHashes, signal) =>
      readBatch(await send({ type: 'decideBatch', pausePointIds, decision, viewHashes }, signal)),
    setConversationInstructions: (conversationId, instructions, signal) =>
      nothing({ type: 'setConversationInstructions', conversationId, instructions }, signal),
    addRule: async (draft, signal) => readRuleId(await send({ type: 'addRule', draft }, signal)),
    previewRule: async (draft, signal) => readPreview(await send({ type: 'previewRule', draft }, signal)),
    makeRuleActive: (ruleId, signal) => nothing({ type: 'makeRuleActive', ruleId }, signal),
    removeRule: (ruleId, signal) => nothing({ type: 'removeRule', ruleId }, signal),
    enableRule: (ruleId, signal) => nothing({ type: 'enableRule', ruleId }, signal),
    disableRule: (ruleId, signal) => nothing({ type: 'disableRule', ruleId }, signal),
    setAlwaysAllowIrreversible: (on, signal) => nothing({ type: 'setAlwaysAllowIrreversible', on }, signal),
    setAskForEverything: (on, signal) => nothing({ type: 'setAskForEverything', on }, signal),
    editMessage: (conversationId, messageId, text, keep, signal) =>
      nothing({ type: 'editMessage', conversationId, messageId, text, ...(keep ? { keep } : {}) }, signal),
    regenerate: (conversationId, signal) => nothing({ type: 'regenerate', conversationId }, signal),
    switchVersion: (conversationId, branchId, signal) => nothing({ type: 'switchVersion', conversationId, branchId }, signal),
    listModels: async (endpoint, signal) => readModels(await send({ type: 'listModels', ...endpoint }, signal)),
  };
}

/** A batch's answer: each card's own result, read by the same guard as a single decision's (a failure: its message). */
export function readBatchResult(value: unknown): BatchResult | null {
  if (!isObject(value) || !isString(value.batchId) || !Array.isArray(value.cards)) return null;
  const cards: BatchResult['cards'] = [];
  for (const card of value.cards as unknown[]) {
    if (!isObject(card) || !isString(card.pausePointId) || !isObject(card.result)) return null;
    const { result } = card;
    const read = result.outcome === 'failed' ? (isString(result.message) ? { outcome: 'failed' as const, message: result.message } : null) : readDecideResult(result);
    if (!read) return null;
    cards.push({ pausePointId: card.pausePointId, result: read });
  }
  return { batchId: value.batchId, cards };
}

function readBatch(value: unknown): BatchResult {
  const result = readBatchResult(value);
  if (!result) throw new AgentError('ProtocolError', 'The agent worker answered a batch of decisions with something unreadable.');
  return result;
}

function readRuleId(value: unknown): { ruleId: string } {
  if (isObject(value) && isString(value.ruleId)) return { ruleId: value.ruleId };
  throw new AgentError('ProtocolError', 'The agent worker did not say which rule it made.');
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

function readPreview(value: unknown): RulePreview {
  if (isObject(value) && isCount(value.decided) && isCount(value.of) && Array.isArray(value.examples)) {
    const examples = value.examples.flatMap((call: unknown) =>
      isObject(call) && typeof call.at === 'number' && isString(call.conversationId) && isString(call.toolCallId) && isString(call.toolName)
        ? [{ at: call.at, conversationId: call.conversationId, toolCallId: call.toolCallId, toolName: call.toolName, args: call.args }]
        : [],
    );
    return { decided: value.decided, of: value.of, examples };
  }
  throw new AgentError('ProtocolError', 'The agent worker answered a rule preview with something unreadable.');
}

const readModels = (value: unknown): string[] => (Array.isArray(value) ? value.filter(isString) : []);
