import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { harness, say, tab } from '../engine/testing/harness.ts';
import { signObject } from '../identity/device-signature.ts';
import { deviceIdentity } from '../identity/identity-store.ts';
import { DexieStorage } from '../storage/dexie-storage.ts';
import { openTestDb } from '../storage/testing/open-test-db.ts';
import { exportAuditLog } from './export-audit-log.ts';
import { verifyAuditFile } from './verify-audit-file.ts';

const transfer = (amount: number) => ({ calls: [{ name: 'transfer', args: { amount, to: 'bob' } }] });

/**
 * The two expiries settled inside another transaction — the card a Send sets
 * aside, the card a late press finds past its time — made through the engine
 * on Dexie with the device's own key, as the worker signs, then exported:
 * each entry carries its device_signature, and the file verifies with every
 * decision signed.
 */
describe('an audit export of the expiries a Send and a late press settle', () => {
  it('carries device_signature on both, and verifies with no decision unsigned', async () => {
    const { db, cleanup } = await openTestDb();
    try {
      const storage = new DexieStorage(db);
      const h = harness([transfer(500), { text: 'Not sent.' }, transfer(700), { text: 'It expired.' }], {
        storage,
        signer: { sign: async (signed) => signObject(await deviceIdentity(db), signed) },
        settings: { expiryMs: async () => 60_000 },
      });
      const first = await say(h, null, 'pay bob 500');
      const [setAside] = await storage.listPendingPausePoints(first);
      await say(h, first, 'never mind');

      const second = await say(h, null, 'pay bob 700');
      const [late] = await storage.listPendingPausePoints(second);
      h.clock.advance(60_000);
      expect(await h.engine.decide(late!.id, { type: 'approve' }, tab('tab-A'))).toEqual({ outcome: 'expired' });
      await h.engine.whenIdle();

      const chunks: string[] = [];
      await exportAuditLog(db, {}, (chunk) => void chunks.push(chunk));
      const text = chunks.join('');
      const verified = await verifyAuditFile(text);
      expect(verified).toMatchObject({ ok: true, version: 4 });
      if (!verified.ok || verified.version !== 4) return;
      const entry = (id: string) => verified.entries.find((e) => e.id === id);
      expect(entry(setAside!.id)).toMatchObject({ status: 'expired', device_signature: { signed: { card_id: setAside!.id, status: 'expired', by: 'expiry', expired_reason: 'abandoned' } } });
      expect(entry(late!.id)).toMatchObject({ status: 'expired', device_signature: { signed: { card_id: late!.id, status: 'expired', by: 'expiry', expired_reason: 'timeout' } } });
      expect(verified.signatures).toMatchObject({ verified: 2, failed: [], unlisted: [], unsigned: [] });
    } finally {
      await cleanup();
    }
  });
});
