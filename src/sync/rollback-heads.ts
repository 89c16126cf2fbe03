import { z } from 'zod';
import type { PausepointDb } from '../storage/db.ts';
import { RULE_FLOORS_KEY } from '../storage/rule-floors.ts';
import type { CouchClient } from './couch/couch-client.ts';
import { recordHash } from './record-hash.ts';
import type { SealedDocuments } from './sealed-documents.ts';
import type { SyncContext } from './sync-context.ts';

/**
 * What the inviting device had when it made a pairing link, so the new
 * device refuses anything older (the rollback guard, docs/security.md):
 *
 * - `rules`: per device, how many of its rule events it held, numbered from 1
 *   with no gap. Events are immutable, so the danger is one withheld (a
 *   removal, a disable); the new device's allow rules decide only once it
 *   holds every one of them (storage/rule-floors.ts).
 * - `cards`: per card, the version counter `n` of its document as the
 *   inviting device last pushed or read it, for cards past their first
 *   version. A card's document with a lower `n` is an old one replayed (a
 *   `pending` version of a card since decided) and is refused.
 *
 * They can be long (a card each), so they travel in a document of their own
 * (kind `heads`, sealed like every other, id its hash), and the link carries
 * only the hash: the link is sealed under the pairing code, which travels
 * apart, so the hash in it is as good as the heads themselves.
 */
export const Heads = z.object({
  v: z.literal(1),
  rules: z.record(z.string().min(1).max(200), z.number().int().positive()),
  cards: z.record(z.string().min(1).max(400), z.number().int().min(2)),
});
export type Heads = z.infer<typeof Heads>;

/** The settings row of a joined device's card floors: card id → the lowest `n` it takes. */
export const CARD_FLOORS_KEY = 'cardFloors';

/** What this device holds now: the heads a pairing link it makes names. */
export async function currentHeads(db: PausepointDb): Promise<Heads> {
  const rules: Record<string, number> = {};
  const seqs = new Map<string, number[]>();
  await db.ruleEvents.each((event) => {
    const list = seqs.get(event.device) ?? [];
    list.push(event.seq);
    seqs.set(event.device, list);
  });
  for (const [device, list] of seqs) {
    // The run from 1 without a gap: beyond a gap, this device cannot vouch for what the server holds.
    const held = new Set(list);
    let count = 0;
    while (held.has(count + 1)) count++;
    if (count > 0) rules[device] = count;
  }
  const cards: Record<string, number> = {};
  await db.syncDocs
    .where('key')
    .startsWith('pausePoint:')
    .each((state) => {
      if (state.n >= 2) cards[state.key.slice('pausePoint:'.length)] = state.n;
    });
  return { v: 1, rules, cards };
}

/** The heads' hash, as the pairing link carries it: SHA-256 of their canonical JSON, hex. */
export function headsHash(heads: Heads): string {
  return recordHash(heads);
}

/** Writes this device's heads where a device joining with its link reads them; returns their hash for the link. */
export async function publishHeads(ctx: SyncContext): Promise<string> {
  const heads = await currentHeads(ctx.db);
  const hash = headsHash(heads);
  const sealed = await ctx.sealed.seal({ v: 1, kind: 'heads', id: hash, n: 1, from: ctx.device.id, record: heads });
  // Created once: a 409 means these very heads are there already (the id is their hash).
  await ctx.client.createDocument(sealed._id, { e: sealed.e });
  return hash;
}

/** The heads a pairing link names, read from the server and checked against its hash; undefined when missing or not those. */
export async function readHeads(client: CouchClient, sealed: SealedDocuments, hash: string): Promise<Heads | undefined> {
  const raw = await client.getDocument(await sealed.idOf('heads', hash));
  if (!raw) return undefined;
  const doc = await sealed.open(raw).catch(() => undefined);
  if (doc?.kind !== 'heads' || doc.id !== hash || headsHash(doc.record) !== hash) return undefined;
  return doc.record;
}

/**
 * A joined device's floors from the heads its link named, before it applies
 * anything: rule floors for the rules repository, card floors for
 * apply-documents.ts. No heads (sync turned on with the passphrase, or a link
 * made before heads): no floors.
 */
export async function storeFloors(db: PausepointDb, heads: Heads | undefined): Promise<void> {
  await db.transaction('rw', db.settings, async () => {
    await db.settings.bulkDelete([RULE_FLOORS_KEY, CARD_FLOORS_KEY]);
    if (!heads) return;
    if (Object.keys(heads.rules).length > 0) await db.settings.put({ key: RULE_FLOORS_KEY, value: heads.rules });
    if (Object.keys(heads.cards).length > 0) await db.settings.put({ key: CARD_FLOORS_KEY, value: heads.cards });
  });
}

/** The card floors a page of changes is checked against: card id → the lowest `n` taken. */
export async function cardFloors(db: PausepointDb): Promise<ReadonlyMap<string, number>> {
  const value = (await db.settings.get(CARD_FLOORS_KEY))?.value;
  const floors = new Map<string, number>();
  if (typeof value !== 'object' || value === null) return floors;
  for (const [id, n] of Object.entries(value)) if (typeof n === 'number') floors.set(id, n);
  return floors;
}
