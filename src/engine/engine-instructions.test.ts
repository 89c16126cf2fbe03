import { describe, expect, it } from 'vitest';
import { CONVERSATION_INSTRUCTIONS_PREFIX, GENERAL_INSTRUCTIONS_PREFIX } from './build-request.ts';
import type { SettingsPort } from './settings-port.ts';
import { SYSTEM_PROMPT } from './system-prompt.ts';
import { harness, say } from './testing/harness.ts';

const withInstructions = (text: string | undefined): SettingsPort => ({ expiryMs: async () => null, instructions: async () => text });
const systemTexts = (messages: readonly { role: string; content?: unknown }[]) => messages.filter((m) => m.role === 'system').map((m) => m.content);

describe('custom instructions reach every model call', () => {
  it('sends Settings’ instructions and the conversation’s after the app’s system prompt', async () => {
    const h = harness([{ text: 'one' }, { text: 'two' }], { settings: withInstructions('Answer in French.') });
    const id = await say(h, null, 'hi');
    expect(systemTexts(h.model.lastMessages())).toEqual([SYSTEM_PROMPT, `${GENERAL_INSTRUCTIONS_PREFIX}Answer in French.`]);

    await h.engine.setConversationInstructions(id, '  Be brief.  ');
    expect((await h.storage.getConversation(id))?.instructions).toBe('Be brief.');
    await say(h, id, 'again');
    expect(systemTexts(h.model.lastMessages())).toEqual([
      SYSTEM_PROMPT,
      `${GENERAL_INSTRUCTIONS_PREFIX}Answer in French.`,
      `${CONVERSATION_INSTRUCTIONS_PREFIX}Be brief.`,
    ]);
  });

  it('keeps them on the calls after a tool ran (a step carried on without reading the conversation again)', async () => {
    // A transfer of 5 runs without asking: the step after it is carried on, not read back.
    const h = harness([{ calls: [{ name: 'transfer', args: { amount: 5, to: 'bob' } }] }, { text: 'done' }], { settings: withInstructions('Standing.') });
    const id = await h.engine.createConversation();
    await h.engine.setConversationInstructions(id, 'Here only.');
    await say(h, id, 'pay bob');
    expect(h.executions).toHaveLength(1);
    expect(h.model.requests).toHaveLength(2);
    for (const request of h.model.requests) {
      expect(systemTexts(request.messages)).toEqual([SYSTEM_PROMPT, `${GENERAL_INSTRUCTIONS_PREFIX}Standing.`, `${CONVERSATION_INSTRUCTIONS_PREFIX}Here only.`]);
    }
  });

  it('clears the conversation’s with an empty text, leaving no field behind', async () => {
    const h = harness([{ text: 'one' }]);
    const id = await h.engine.createConversation();
    await h.engine.setConversationInstructions(id, 'Here only.');
    await h.engine.setConversationInstructions(id, '   ');
    expect(await h.storage.getConversation(id)).not.toHaveProperty('instructions');
    await say(h, id, 'hi');
    expect(systemTexts(h.model.lastMessages())).toEqual([SYSTEM_PROMPT]);
  });
});
