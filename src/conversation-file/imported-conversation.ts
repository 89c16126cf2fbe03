import type { Conversation, Message, PausePoint } from '../engine/records/index.ts';

/** One conversation as an import writes it: its record, its messages in `seq` order, and its cards. */
export interface ImportedConversation {
  conversation: Conversation;
  messages: Message[];
  pausePoints: PausePoint[];
}
