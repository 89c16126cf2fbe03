import { beforeEach, describe, expect, it } from 'vitest';
import type { Conversation, Message, PausePoint, Versions } from '../records/index.ts';
import type { StoragePort } from '../storage-port.ts';
import { makeConversation, makeLedgerEntry, makePausePoint, userDraft } from './make-records.ts';
import { resolve } from './storage-contract-helpers.ts';

const ON_B1: Versions = { current: 'b1', rootActive: 0, branches: [{ id: 'b1', parent: '', from: 0, active: 1, createdAt: 1 }] };
const ON_B2: Versions = { ...ON_B1, current: 'b2', branches: [...ON_B1.branches, { id: 'b2', parent: '', from: 0, active: 2, createdAt: 2 }] };

const branches = (messages: readonly Message[]) => messages.map((m) => [m.id, m.branch]);

/**
 * The StoragePort contract for versions: every append path stamps a message
 * with the branch its draft names, or the conversation's current one as the
 * transaction read it, and a conversation without versions stores messages
 * without `branch`, as before. Registered by describeStoragePort.
 */
export function describeBranchStampContract(storageOf: () => StoragePort): void {
  describe('version branches', () => {
    let storage: StoragePort;
    beforeEach(() => {
      storage = storageOf();
    });

    it('a conversation without versions stores its messages without a branch, on every append path', async () => {
      await storage.putConversation(makeConversation());
      await storage.appendMessages('c1', [userDraft('c1', 'm0')]);
      await storage.appendAndLoadStep('c1', [userDraft('c1', 'm1')], undefined, undefined, 0);
      await storage.pauseConversation('c1', [makePausePoint()], (c, pending) => ({ ...c, state: { kind: 'paused', pending } }), [userDraft('c1', 'm2')]);
      await storage.settlePausePoint('p1', (p) => resolve(p, [userDraft('c1', 'm3')]));
      await storage.finishExecution(makeLedgerEntry({ status: 'succeeded' }), { ...userDraft('c1', 'm4'), role: 'tool', toolCallId: 'call_1', toolName: 'send_invoice', outcome: 'done' });
      const stored = await storage.listMessages('c1');
      expect(stored).toHaveLength(5);
      for (const m of stored) expect('branch' in m).toBe(false);
    });

    it('stamps the current branch on every append path, and keeps the branch a draft names', async () => {
      await storage.putConversation(makeConversation({ versions: ON_B2 }));
      await storage.appendMessages('c1', [userDraft('c1', 'm0'), { ...userDraft('c1', 'm1'), branch: 'b1' }]);
      await storage.appendAndLoadStep('c1', [userDraft('c1', 'm2')], undefined, undefined, 0);
      await storage.pauseConversation('c1', [makePausePoint()], (c, pending) => ({ ...c, state: { kind: 'paused', pending } }), [userDraft('c1', 'm3')]);
      await storage.settlePausePoint('p1', (p) => resolve(p, [userDraft('c1', 'm4')]));
      await storage.finishExecution(makeLedgerEntry({ status: 'succeeded' }), { ...userDraft('c1', 'm5'), role: 'tool', toolCallId: 'call_1', toolName: 'send_invoice', outcome: 'done' });
      expect(branches(await storage.listMessages('c1'))).toEqual([
        ['m0', 'b2'],
        ['m1', 'b1'],
        ['m2', 'b2'],
        ['m3', 'b2'],
        ['m4', 'b2'],
        ['m5', 'b2'],
      ]);
    });

    it('an edit’s transaction: the cards set aside stay on the version read, the new message goes on the one it names', async () => {
      await storage.putConversation(makeConversation({ versions: ON_B1 }));
      await storage.createPausePoint(makePausePoint());
      const setAside = (p: PausePoint) => ({ pausePoint: { ...p, status: 'expired' as const, expiredReason: 'abandoned' as const, resolvedAt: 3_000 }, messages: [userDraft('c1', 'aside')] });
      const seen: (Conversation | undefined)[] = [];
      const step = await storage.appendAndLoadStep(
        'c1',
        [{ ...userDraft('c1', 'edited'), branch: 'b2' }],
        (c) => ({ ...c, versions: ON_B2 }),
        setAside,
        0,
        (_tail, conversation) => (seen.push(conversation), []),
      );
      expect(branches(step.tail)).toEqual([
        ['aside', 'b1'],
        ['edited', 'b2'],
      ]);
      // The step's choice of calls sees the conversation as written, with its new current version.
      expect(seen.map((c) => c?.versions?.current)).toEqual(['b2']);
      const loaded: (Conversation | undefined)[] = [];
      await storage.loadStep('c1', 0, (_tail, conversation) => (loaded.push(conversation), []));
      expect(loaded.map((c) => c?.versions?.current)).toEqual(['b2']);
    });
  });
}
