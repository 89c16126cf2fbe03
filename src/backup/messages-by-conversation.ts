import type { Table } from 'dexie';
import { keysetPages } from '../storage/keyset-pages.ts';

const BY_CONVERSATION = '[conversationId+seq]';
type Key = [string, number];
/** A message as the table holds it: a damaged one may lack the fields the index is made of. */
type Row = { id: string; conversationId?: unknown; seq?: unknown };

/**
 * The messages table a page at a time in conversation and `seq` order, so a backup lists each
 * conversation's messages together and a restore sets them aside a conversation's run at a time
 * (restore-staging.ts). Keyset paging on an index whose keys may repeat (two messages of one
 * conversation with one `seq`: none that this app writes): a full page is followed by every other
 * message of its last key, and the next page starts above that key. A page can therefore be a
 * little longer than `size`.
 *
 * A message outside the index (its conversation id or `seq` is no key: only a damaged database
 * holds one) comes last, found by a pass over the primary key that runs only when the index holds
 * fewer messages than the table.
 */
export async function* messagesByConversation<T extends Row, I>(messages: Table<T, string, I>, size: number): AsyncGenerator<T[]> {
  const [total, indexed] = await Promise.all([messages.count(), messages.orderBy(BY_CONVERSATION).count()]);
  let last: Key | undefined;
  for (;;) {
    const page = await (last === undefined ? messages.orderBy(BY_CONVERSATION) : messages.where(BY_CONVERSATION).above(last)).limit(size).toArray();
    if (page.length === 0) break;
    last = keyOf(page[page.length - 1]!);
    if (page.length === size) {
      const inPage = new Set(page.map((message) => message.id));
      for (const tied of await messages.where(BY_CONVERSATION).equals(last).toArray()) if (!inPage.has(tied.id)) page.push(tied);
    }
    yield page;
    if (page.length < size) break;
  }
  if (indexed === total) return;
  for await (const page of keysetPages(messages, size)) {
    const outside = page.filter((message) => !isKey(message.conversationId) || !isKey(message.seq));
    if (outside.length > 0) yield outside;
  }
}

function keyOf(message: Row): Key {
  return [message.conversationId, message.seq] as Key;
}

/** Whether IndexedDB takes `value` as a key: `cmp` refuses anything else. */
function isKey(value: unknown): boolean {
  try {
    indexedDB.cmp(value, value);
    return true;
  } catch {
    return false;
  }
}
