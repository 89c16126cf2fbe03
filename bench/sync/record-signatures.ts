import { performance } from 'node:perf_hooks';
import { newDeviceIdentity } from '../../src/identity/device-identity.ts';
import { deriveSyncKeys, newDataKey } from '../../src/sync/crypto/data-key.ts';
import { openDocument, sealDocument } from '../../src/sync/crypto/envelope.ts';
import { SealedDocuments } from '../../src/sync/sealed-documents.ts';
import type { SyncDocument } from '../../src/sync/sync-document.ts';

/**
 * What signing every synced record costs (issue 38 point 2): `RECORDS`
 * messages of a first sync, sealed and opened one after another as a push's
 * batch and a page of the feed do, with signatures (SealedDocuments: seal +
 * sign, open + verify against the pinned key) and without (the envelope
 * alone), per record. Same process, same keys, same records.
 */
export async function recordSignatureCosts(records = 2_000): Promise<{ sealMs: number; sealSignedMs: number; openMs: number; openVerifiedMs: number }> {
  const keys = await deriveSyncKeys(newDataKey());
  const identity = await newDeviceIdentity();
  const database = 'bench';
  const sealed = new SealedDocuments(keys, database, [], { identity, members: { keyOf: () => identity.publicKey } });
  const docs: SyncDocument[] = Array.from({ length: records }, (_, i) => ({
    v: 1,
    kind: 'message',
    id: `c${i % 50}-m${i}`,
    n: 1,
    from: 'laptop',
    record: { v: 1, id: `c${i % 50}-m${i}`, conversationId: `c${i % 50}`, seq: i, createdAt: 1_000 + i, role: 'user', content: `message ${i} `.repeat(20) },
  }));
  const ids = await Promise.all(docs.map((d) => sealed.idOf(d.kind, d.id)));

  const time = async (run: () => Promise<unknown>) => {
    const start = performance.now();
    await run();
    return (performance.now() - start) / records;
  };
  // Warm both paths (key import, JIT) before measuring.
  await sealed.open(await sealed.seal(docs[0]!));
  const plain: { _id: string; e: unknown }[] = [];
  const signed: { _id: string; e: unknown }[] = [];
  const sealMs = await time(() => Promise.all(docs.map(async (d, i) => (plain[i] = { _id: ids[i]!, e: await sealDocument(keys, { database, docId: ids[i]! }, d) }))));
  const sealSignedMs = await time(() => Promise.all(docs.map(async (d, i) => (signed[i] = await sealed.seal(d)))));
  const openMs = await time(() => Promise.all(plain.map((p) => openDocument(keys, { database, docId: p._id }, p.e))));
  const openVerifiedMs = await time(() => Promise.all(signed.map((s) => sealed.open(s))));
  return { sealMs, sealSignedMs, openMs, openVerifiedMs };
}
