import { afterEach, expect, test, vi } from 'vitest';
import type { SyncContext } from './sync-context.ts';

// The stored status and checkpoint, and the push side, stand still: only the order of the first page's request is looked at.
vi.mock('./sync-store.ts', () => ({
  readCheckpoint: vi.fn(async () => '0'),
  writeCheckpoint: vi.fn(async () => {}),
  writeSyncStatus: vi.fn(() => new Promise<void>(() => {})),
}));
vi.mock('./decision-claims.ts', () => ({ flushClaims: vi.fn(() => new Promise(() => {})) }));
vi.mock('./push-changes.ts', () => ({ HEARTBEAT_MS: 60_000, pushChanges: vi.fn(() => new Promise(() => {})) }));

const { Replicator } = await import('./replicator.ts');
const { writeSyncStatus } = await import('./sync-store.ts');

const stop = new AbortController();
afterEach(() => stop.abort());

test('a start asks for the first page of changes while its status "syncing" is still being written, not after (a page opened on a push link waits for that page)', async () => {
  const changes = vi.fn(() => new Promise<never>(() => {}));
  const client = { changes, databaseInfo: vi.fn(() => new Promise<never>(() => {})) };
  const ctx = { db: {}, client } as unknown as SyncContext;
  const hooks = { applyClaim: vi.fn(), newCards: vi.fn(), stop: vi.fn() };
  void new Replicator(ctx, hooks, { removed: vi.fn(), rotated: vi.fn() }).run(stop.signal);
  await vi.waitFor(() => expect(writeSyncStatus).toHaveBeenCalledWith(ctx.db, 'syncing'));
  // The status write never ends here; the request goes anyway.
  await vi.waitFor(() => expect(changes).toHaveBeenCalledWith(expect.objectContaining({ since: '0', feed: 'normal' })));
});
