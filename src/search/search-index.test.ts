import { describe, expect, test } from 'vitest';
import { SearchIndex } from './search-index.ts';

const message = (messageId: string) => ({ kind: 'message' as const, messageId });
const found = (index: SearchIndex, query: string) => index.search(query, 50).hits.map((h) => h.conversationId);

describe('SearchIndex', () => {
  test('finds conversations by title, message and card text, newest first, one hit per conversation', () => {
    const index = new SearchIndex();
    index.putConversation('old', 'Groceries', 1);
    index.putConversation('new', 'Trip to Oslo', 5);
    index.putText('old', message('m1'), 'buy oat milk and bread', 1);
    index.putText('old', message('m2'), 'more oat milk please', 2);
    index.putText('new', { kind: 'card', pausePointId: 'p1' }, 'Book the train\nTwo seats, oat milk on board', 4);
    expect(found(index, 'oat milk')).toEqual(['new', 'old']);
    expect(found(index, 'groceries')).toEqual(['old']);
    expect(index.search('oat milk', 50).hits[0]?.source).toEqual({ kind: 'card', pausePointId: 'p1' });
    expect(index.search('bread', 50).hits[0]?.source).toEqual({ kind: 'message', messageId: 'm1' });
    expect(index.search('oat', 1)).toMatchObject({ total: 2, hits: [{ conversationId: 'new' }] });
  });

  test('every word must be in one document; the last one may be a prefix being typed', () => {
    const index = new SearchIndex();
    index.putConversation('c', 'Chat', 1);
    index.putText('c', message('m1'), 'invoice for March', 1);
    index.putText('c', message('m2'), 'the receipt', 2);
    expect(found(index, 'invoice receipt')).toEqual([]);
    expect(found(index, 'invoice Mar')).toEqual(['c']);
    expect(found(index, 'inv march')).toEqual([]);
    // One letter is too short a prefix: it would match nearly everything.
    expect(found(index, 'invoice f')).toEqual([]);
  });

  test('a title matches mid-word, as the sidebar filter did', () => {
    const index = new SearchIndex();
    index.putConversation('c', 'Trip to Oslo', 1);
    expect(found(index, 'slo')).toEqual(['c']);
    expect(found(index, 'TO OS')).toEqual(['c']);
    expect(index.search('slo', 5).hits[0]?.source).toEqual({ kind: 'title' });
  });

  test('replacing a message indexes its new text only (a streamed answer grows)', () => {
    const index = new SearchIndex();
    index.putConversation('c', 'Chat', 1);
    index.putText('c', message('m1'), 'Hello', 1);
    index.putText('c', message('m1'), 'Hello there, general Kenobi', 1);
    index.putText('c', message('m1'), 'Goodbye', 1);
    expect(found(index, 'kenobi')).toEqual([]);
    expect(found(index, 'hello')).toEqual([]);
    expect(found(index, 'goodbye')).toEqual(['c']);
    expect(index.size).toBe(2);
  });

  test('removing a message or a conversation removes what was indexed of it', () => {
    const index = new SearchIndex();
    index.putConversation('a', 'Alpha', 1);
    index.putConversation('b', 'Beta', 2);
    index.putText('a', message('m1'), 'shared word', 1);
    index.putText('a', message('m2'), 'only alpha', 1);
    index.putText('b', message('m3'), 'shared word', 2);
    index.removeText(message('m3'));
    expect(found(index, 'shared')).toEqual(['a']);
    index.removeConversation('a');
    expect(found(index, 'shared')).toEqual([]);
    expect(found(index, 'alpha')).toEqual([]);
    expect(index.size).toBe(1);
    expect([...index.conversationIds()]).toEqual(['b']);
  });

  test('a rename finds the new title and no longer the old one', () => {
    const index = new SearchIndex();
    index.putConversation('c', 'plan the trip', 1);
    index.putConversation('c', 'Lisbon holiday', 2);
    expect(found(index, 'lisbon')).toEqual(['c']);
    expect(found(index, 'trip')).toEqual([]);
    expect(index.search('holiday', 5).hits[0]).toMatchObject({ title: 'Lisbon holiday', updatedAt: 2 });
  });

  test('folds case and diacritics, both ways', () => {
    const index = new SearchIndex();
    index.putConversation('c', 'Chat', 1);
    index.putText('c', message('m1'), 'Le CAFÉ de Zoë, straße, ﬁle, ＡＢＣ', 1);
    for (const query of ['café', 'cafe', 'CAFE', 'Café', 'zoe', 'ZOË', 'strasse', 'STRASSE', 'file', 'abc']) expect(found(index, query), query).toEqual(['c']);
    index.putText('c', message('m2'), 'resume', 2);
    expect(index.search('Résumé', 5).hits[0]?.source).toEqual({ kind: 'message', messageId: 'm2' });
  });

  test('tokenises on Unicode word boundaries: scripts without spaces, apostrophes, punctuation', () => {
    const index = new SearchIndex();
    index.putConversation('c', 'Chat', 1);
    index.putText('c', message('ja'), '東京タワーに行きました。', 1);
    index.putText('c', message('fr'), "Cet été, l'été dernier.", 2);
    index.putText('c', message('el'), 'ΟΔΥΣΣΕΥΣ (Odysseus)', 3);
    index.putText('c', message('ru'), 'Привет, мир!', 4);
    expect(index.search('東京タワー', 5).hits[0]?.source).toEqual(message('ja'));
    expect(index.search('été dernier', 5).hits[0]?.source).toEqual(message('fr'));
    expect(index.search("l'ete", 5).hits[0]?.source).toEqual(message('fr'));
    expect(index.search('οδυσσευς', 5).hits[0]?.source).toEqual(message('el'));
    expect(index.search('odysseus', 5).hits[0]?.source).toEqual(message('el'));
    expect(index.search('МИР', 5).hits[0]?.source).toEqual(message('ru'));
    expect(found(index, '!!! ,,,')).toEqual([]);
    index.putText('c', message('th'), 'ภาษาไทยง่ายนิดเดียว', 5);
    expect(index.search('ภาษา', 5).hits[0]?.source).toEqual(message('th'));
    index.putText('c', message('num'), 'Total: 1,000.50 don’t panic', 6);
    expect(index.search('1,000.50', 5).hits[0]?.source).toEqual(message('num'));
    expect(index.search('dont', 5).hits).toEqual([]);
    expect(index.search('don’t', 5).hits[0]?.source).toEqual(message('num'));
  });

  test('text of a conversation not yet known (synced before it) is listed once the conversation is', () => {
    const index = new SearchIndex();
    index.putText('later', message('m1'), 'early bird', 1);
    expect(found(index, 'early')).toEqual([]);
    index.putConversation('later', 'Arrived', 3);
    expect(found(index, 'early')).toEqual(['later']);
  });
});
