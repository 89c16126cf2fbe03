import { describe, expect, it } from 'vitest';
import { cardRuleDraft } from './card-rule-draft.ts';
import { describeRule } from './describe-rule.ts';
import { ApprovalRuleDraft } from './records/index.ts';

describe('cardRuleDraft', () => {
  it('narrows an http_request to its method and URL origin, in this conversation', () => {
    const draft = cardRuleDraft(
      { toolName: 'http_request', conversationId: 'c1', payload: { method: 'POST', url: 'https://API.example.com:443/v1/items?x=1', body: '{}' } },
      'conversation',
    );
    expect(draft).toEqual({
      effect: 'allow',
      tool: 'http_request',
      match: [
        { kind: 'equals', pointer: '/method', value: 'POST' },
        { kind: 'url', pointer: '/url', origin: 'https://api.example.com' },
      ],
      scope: { kind: 'conversation', conversationId: 'c1' },
      source: 'card',
    });
    expect(describeRule(ApprovalRuleDraft.parse(draft))).toBe('Allow http_request when method is POST and url is on https://api.example.com — in this conversation');
  });

  it('allows any other tool by its exact name, everywhere', () => {
    const draft = cardRuleDraft({ toolName: 'delete_note', conversationId: 'c1', payload: { id: 'n1' } }, 'everywhere');
    expect(draft).toEqual({ effect: 'allow', tool: 'delete_note', match: [], scope: { kind: 'everywhere' }, source: 'card' });
    expect(describeRule(ApprovalRuleDraft.parse(draft))).toBe('Allow delete_note — everywhere');
  });

  it('offers no rule for an http_request without a readable URL', () => {
    expect(cardRuleDraft({ toolName: 'http_request', conversationId: 'c1', payload: { method: 'GET', url: 'not a url' } }, 'everywhere')).toBeNull();
  });
});
