import { canonicalOrigin } from './match-url.ts';
import type { ApprovalRuleDraft, ArgumentMatcher, PausePoint } from './records/index.ts';

/** Where a card's rule applies: the card's own conversation, or every conversation. */
export type CardRuleReach = 'conversation' | 'everywhere';

/**
 * http_request is the one tool whose calls differ enough in reach that
 * "always allow this tool" would grant far more than the card showed: its
 * rule is narrowed to the method and the URL's origin.
 */
const HTTP_REQUEST = 'http_request';

/**
 * The narrowest allow rule that lets this gate card's call through again:
 * for http_request the same method to the same origin, for any other tool
 * that exact tool. Built from the call as the model sent it (the card's
 * payload), not from an edit the person has not sent yet. Null when no
 * narrow rule can be said (an http_request without a readable URL).
 */
export function cardRuleDraft(pause: Pick<PausePoint, 'toolName' | 'payload' | 'conversationId'>, reach: CardRuleReach): ApprovalRuleDraft | null {
  const match = pause.toolName === HTTP_REQUEST ? httpMatchers(pause.payload) : [];
  if (match === null) return null;
  return {
    effect: 'allow',
    tool: pause.toolName,
    match,
    scope: reach === 'everywhere' ? { kind: 'everywhere' } : { kind: 'conversation', conversationId: pause.conversationId },
    source: 'card',
  };
}

function httpMatchers(payload: unknown): ArgumentMatcher[] | null {
  const args = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
  const origin = typeof args.url === 'string' ? originOf(args.url) : null;
  if (typeof args.method !== 'string' || origin === null) return null;
  return [
    { kind: 'equals', pointer: '/method', value: args.method },
    { kind: 'url', pointer: '/url', origin },
  ];
}

function originOf(url: string): string | null {
  try {
    return canonicalOrigin(new URL(url).origin);
  } catch {
    return null;
  }
}
