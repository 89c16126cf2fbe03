import { describe, expect, it } from 'vitest';
import { Conversation, MAX_INSTRUCTIONS_CHARS } from '../engine/records/index.ts';
import { makeConversation } from '../engine/testing/make-records.ts';
import { MAX_CUSTOM_INSTRUCTIONS_CHARS } from './settings-constants.ts';
import { Settings } from './settings-repo.ts';

const settings = { provider: 'custom', baseUrl: 'https://llm.example/v1', apiKey: '', model: 'm' } as const;

describe('custom instructions: stored, with a bound', () => {
  it('allows Settings’ as many characters as a conversation’s own', () => {
    expect(MAX_CUSTOM_INSTRUCTIONS_CHARS).toBe(MAX_INSTRUCTIONS_CHARS);
  });

  it('takes instructions up to the bound and refuses longer ones, in Settings and on a conversation', () => {
    const longest = 'x'.repeat(MAX_INSTRUCTIONS_CHARS);
    expect(Settings.safeParse({ ...settings, customInstructions: longest }).success).toBe(true);
    expect(Settings.safeParse({ ...settings, customInstructions: `${longest}x` }).success).toBe(false);
    expect(Conversation.safeParse(makeConversation({ instructions: longest })).success).toBe(true);
    expect(Conversation.safeParse(makeConversation({ instructions: `${longest}x` })).success).toBe(false);
  });

  it('reads rows and records made before they existed as before', () => {
    expect(Settings.parse(settings)).not.toHaveProperty('customInstructions');
    expect(Conversation.parse(makeConversation())).not.toHaveProperty('instructions');
  });
});
