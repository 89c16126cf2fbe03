// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import type { Observable } from 'dexie';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import type { Message } from '../../engine/records/index.ts';
import { makePausePoint } from '../../engine/testing/make-records.ts';
import { newConversation } from '../../engine/records/new-conversation.ts';
import { liveConversation, liveConversationPage } from '../../storage/conversations-repo.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { liveSettings } from '../../storage/live-settings.ts';
import { liveTail } from '../../storage/messages-repo.ts';
import { livePausePoints, livePendingApprovals } from '../../storage/pause-points-repo.ts';
import { saveSettings } from '../../storage/settings-repo.ts';
import { useTestDb } from '../../storage/testing/open-test-db.ts';
import { TAIL_PAGE } from './conversation-tail.svelte.ts';
import { readFirstScreen, SIDEBAR_PAGE } from './first-screen.ts';

let db: PausepointDb;
useTestDb((fresh) => (db = fresh));

const first = <T>(observable: Observable<T>) => new Promise<T>((resolve, reject) => {
  const subscription = observable.subscribe({ next: (value) => (queueMicrotask(() => subscription.unsubscribe()), resolve(value)), error: reject });
});

beforeEach(async () => {
  await saveSettings(db, { provider: 'demo', baseUrl: 'https://demo.pausepoint.invalid/v1', apiKey: '', model: 'pausepoint-demo' });
  await db.conversations.bulkPut([
    { ...newConversation({ id: 'c1', title: 'Quarterly report', now: 10 }), nextSeq: 250 },
    newConversation({ id: 'c2', title: 'Other', now: 20 }),
  ]);
  const messages: Message[] = Array.from({ length: 250 }, (_, seq) => ({ v: 1, id: `m${seq}`, conversationId: 'c1', seq, createdAt: seq, role: 'user', content: `message ${seq}` }));
  await db.messages.bulkAdd(messages);
  await db.pausePoints.put(makePausePoint({ id: 'p1', conversationId: 'c1', title: 'Send the report' }));
});

describe('readFirstScreen', () => {
  test("reads for each view exactly what that view's live query first emits", async () => {
    const screen = (await readFirstScreen(db, { view: 'conversation', id: 'c1' }))!;
    expect(screen.settings.take()).toEqual({ value: await first(liveSettings(db)) });
    expect(screen.approvals.take()).toEqual({ value: await first(livePendingApprovals(db)) });
    expect(screen.sidebar.take()).toEqual({ value: await first(liveConversationPage(db, { limit: SIDEBAR_PAGE })) });
    expect(screen.conversation?.id).toBe('c1');
    expect(screen.conversation!.record.take()).toEqual({ value: await first(liveConversation(db, 'c1')) });
    const tail = screen.conversation!.tail.take();
    expect(tail).toEqual({ value: await first(liveTail(db, 'c1', TAIL_PAGE)) });
    expect(tail!.value.messages).toHaveLength(TAIL_PAGE);
    expect(screen.conversation!.pauses.take()).toEqual({ value: await first(livePausePoints(db, 'c1')) });
    expect(screen.conversation!.pauses.take()).toBeUndefined();
  });

  test('each part is given once: a view opened later reads live', async () => {
    const screen = (await readFirstScreen(db, { view: 'new' }))!;
    expect(screen.conversation).toBeUndefined();
    expect(screen.settings.take()?.value?.provider).toBe('demo');
    expect(screen.settings.take()).toBeUndefined();
  });

  test('readAhead reads another conversation the same way, for the view about to open on it (a push link’s card)', async () => {
    const screen = (await readFirstScreen(db, { view: 'new' }))!;
    expect(screen.conversation).toBeUndefined();
    await screen.readAhead('c1');
    expect(screen.conversation?.id).toBe('c1');
    expect(screen.conversation!.record.take()).toEqual({ value: await first(liveConversation(db, 'c1')) });
    expect(screen.conversation!.tail.take()).toEqual({ value: await first(liveTail(db, 'c1', TAIL_PAGE)) });
    expect(screen.conversation!.pauses.take()).toEqual({ value: await first(livePausePoints(db, 'c1')) });
  });

  test('gives up after its timeout when the database holds the reads up, and the app mounts without it', async () => {
    vi.spyOn(db.settings, 'bulkGet').mockReturnValue(new Promise(() => {}) as never);
    expect(await readFirstScreen(db, { view: 'new' }, 50)).toBeUndefined();
  });

  test('a failed read gives no first screen rather than an error', async () => {
    vi.spyOn(db.settings, 'bulkGet').mockRejectedValue(new Error('storage broke') as never);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await readFirstScreen(db, { view: 'new' })).toBeUndefined();
    expect(warn).toHaveBeenCalled();
  });
});
