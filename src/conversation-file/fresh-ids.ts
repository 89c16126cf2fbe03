import type { Message, PausePoint } from '../engine/records/index.ts';
import type { ImportedConversation } from './imported-conversation.ts';

/**
 * The conversation under new ids: its own, every message's and every card's,
 * with the links between them (each record's `conversationId`, a decision
 * message's `pausePointId`) following. Tool call ids stay: they are the
 * conversation's own, and tie each call to its result and its cards.
 */
export function withFreshIds({ conversation, messages, pausePoints }: ImportedConversation, uuid: () => string): ImportedConversation {
  const conversationId = uuid();
  const cardIds = new Map(pausePoints.map((p) => [p.id, uuid()]));
  const renamedMessages = messages.map((message): Message => {
    const moved = { ...message, id: uuid(), conversationId };
    if (moved.role !== 'user' || !moved.decision) return moved;
    return { ...moved, decision: { pausePointId: cardIds.get(moved.decision.pausePointId) ?? uuid() } };
  });
  const renamedCards = pausePoints.map((pause): PausePoint => ({ ...pause, id: cardIds.get(pause.id)!, conversationId }));
  return { conversation: { ...conversation, id: conversationId }, messages: renamedMessages, pausePoints: renamedCards };
}
