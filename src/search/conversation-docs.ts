import type { Message, PausePoint } from '../engine/records/index.ts';
import { documentTerms } from './document-terms.ts';
import { BLOCK_SIZE, type SearchDoc } from '../storage/records/search-records.ts';
import { cardText, messageText } from './searchable-text.ts';

/** A document at its place: the block part, the place in it, and what it holds now (null: nothing to find). */
export interface DocAt {
  part: number;
  place: number;
  doc: SearchDoc | null;
  /** The document's terms as documentTerms gave them (the strings `doc.terms` joins), so a build adds them without splitting that again. */
  terms?: readonly string[];
}

/** Where a message is: its block holds the messages whose `seq` shares its part. */
export function messagePlace(seq: number): { part: number; place: number } {
  return { part: Math.floor(seq / BLOCK_SIZE), place: seq % BLOCK_SIZE };
}

/** Where the `index`th card of a conversation (in creation order) is: in the negative parts. */
export function cardPlace(index: number): { part: number; place: number } {
  return { part: -1 - Math.floor(index / BLOCK_SIZE), place: index % BLOCK_SIZE };
}

/** Which card of its conversation a document in a card block is (the inverse of cardPlace). */
export function cardIndex(part: number, place: number): number {
  return (-1 - part) * BLOCK_SIZE + place;
}

const termsDoc = (key: string, text: string): Pick<DocAt, 'doc' | 'terms'> => {
  const terms = documentTerms(text);
  return terms.length === 0 ? { doc: null } : { doc: { key, terms: terms.join(' ') }, terms };
};

/** A message's document. */
export function messageDoc(message: Message): DocAt {
  return { ...messagePlace(message.seq), ...termsDoc(message.id, messageText(message)) };
}

/** A conversation's cards in the order that gives each its place: by creation, then id. */
export function orderCards(cards: readonly PausePoint[]): PausePoint[] {
  return [...cards].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Every card's document, at the places their order gives them. */
export function cardDocs(cards: readonly PausePoint[]): DocAt[] {
  return orderCards(cards).map((card, index) => ({ ...cardPlace(index), ...termsDoc(card.id, cardText(card)) }));
}

/** Every document of a conversation: its messages and its cards. */
export function conversationDocs(messages: readonly Message[], cards: readonly PausePoint[]): DocAt[] {
  return [...messages.map(messageDoc), ...cardDocs(cards)];
}
