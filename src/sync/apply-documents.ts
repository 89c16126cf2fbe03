import type { Conversation, LedgerEntry, Message, PausePoint } from '../engine/records/index.ts';
import { admitSynced, type SyncedRecord } from '../inert/index.ts';
import { applySharedPushSettings } from '../push/shared-push-settings.ts';
import { refoldRules } from '../storage/rule-events-repo.ts';
import { releaseRuleFloors } from '../storage/rule-floors.ts';
import { cardFloors } from './rollback-heads.ts';
import type { SyncDocState } from '../storage/records/sync-records.ts';
import { recordHash } from './record-hash.ts';
import type { SyncContext } from './sync-context.ts';
import { syncKey, type DecisionClaim, type SyncDocument } from './sync-document.ts';

/** A document read from the server and opened, with where it was found. */
export interface Incoming {
  doc: SyncDocument;
  docId: string;
  rev: string;
}

export interface Applied {
  applied: number;
  /** Old revisions (a counter not above the one seen), echoes of this device's own, records this device writes. */
  ignored: number;
  /** Documents that break the rules of who writes what: counted with the unreadable ones, never applied. */
  refused: number;
  /** Decisions other devices claimed first for cards of conversations this device runs: the owner applies them. */
  claims: DecisionClaim[];
  /** Cards of other devices' conversations that arrived pending: notified like cards of this device. */
  newCards: PausePoint[];
  /** Conversations this device runs that another device asked to stop. */
  stops: string[];
}

type Verdict = 'applied' | 'ignored' | 'refused';

const TABLES = ['conversations', 'messages', 'pausePoints', 'ledger', 'approvalRules', 'ruleEvents', 'auditEvents', 'syncDevices', 'syncDocs', 'remoteDecisions', 'settings'] as const;

/**
 * Writes what other devices pushed into this device's database, in one
 * transaction per page of the changes feed, so a page is applied whole or not
 * at all and applying it twice changes nothing. Each record has one writer:
 * a conversation's records are written by its owner and only applied here
 * when this device does not run it; a device document only by that device.
 * What breaks that is refused. Every record of the person's data passes the
 * inert path's rules for a paired device (src/inert/admit-synced.ts: ids that
 * say what they are, times clamped to its arrival) before anything else.
 * A document whose version counter is not
 * above the one last seen is an old revision (a server replaying history)
 * or this device's own, and is ignored.
 *
 * The records of a page are written at its end, one `bulkPut` per table,
 * not one `put` each: Dexie's liveQuery (4.4) keeps every key a write names
 * in each subscription whose own reads it misses, until that subscription
 * runs again, while a bulkPut of 50 records or more names its table's whole
 * range, once. One put per record made a new device's first sync of 20,000
 * messages leave some 460,000 ranges (≈ 30 MB) in the page's live queries,
 * and 126,000 in the worker's, for as long as the tab stayed open.
 */
export async function applyDocuments(ctx: SyncContext, incoming: readonly Incoming[]): Promise<Applied> {
  const { db } = ctx;
  const me = ctx.device.id;
  const out: Applied = { applied: 0, ignored: 0, refused: 0, claims: [], newCards: [], stops: [] };
  if (incoming.length === 0) return out;
  await db.transaction('rw', TABLES.map((t) => db[t]), async () => {
    const states = await db.syncDocs.bulkGet(incoming.map(({ doc }) => syncKey(doc.kind, doc.id)));
    const conversationIds = [...new Set(incoming.map(({ doc }) => conversationIdOf(doc)).filter((id): id is string => id !== undefined))];
    const conversations = new Map<string, Conversation>();
    for (const c of await db.conversations.bulkGet(conversationIds)) if (c) conversations.set(c.id, c);
    const runsHere = (conversationId: string) => {
      const c = conversations.get(conversationId);
      return c !== undefined && (c.ownerDevice === undefined || c.ownerDevice.id === me);
    };
    /** A conversation's records come from its owner; before its record arrives, from whoever sent them. */
    const fromOwner = (conversationId: string, from: string) => {
      const owner = conversations.get(conversationId)?.ownerDevice?.id;
      return owner === undefined || owner === from;
    };
    const cardIds = incoming.flatMap(({ doc }) => (doc.kind === 'pausePoint' ? [doc.id] : []));
    const cards = new Map<string, PausePoint>();
    for (const p of await db.pausePoints.bulkGet(cardIds)) if (p) cards.set(p.id, p);
    const seen: SyncDocState[] = [];
    // Written at the page's end, one bulkPut per table (see above); keyed by id, so the last word on a record wins, as put's would.
    const puts = { conversations: new Map<string, Conversation>(), messages: new Map<string, Message>(), ledger: new Map<string, LedgerEntry>(), pausePoints: new Map<string, PausePoint>() };
    // The rules whose events came in this page: folded again at its end, once each.
    const refold = new Set<string>();
    // A device that joined with a pairing link takes no card older than the inviting device had seen (rollback-heads.ts).
    const floors = await cardFloors(db);
    // A removed device's documents do not open any more (their signer is no member); this also keeps what was opened before.
    const removed = new Set((await db.syncDevices.toArray()).filter((d) => d.removed).map((d) => d.id));

    for (const [i, entry] of incoming.entries()) {
      let { doc } = entry;
      const { docId, rev } = entry;
      const state = states[i];
      // The record as stored (its times clamped): so push-changes finds nothing of ours to send back.
      const mark = () => seen.push({ key: syncKey(doc.kind, doc.id), docId, rev, n: doc.n, hash: recordHash(doc.record) });
      if (doc.from === me || (state && doc.n <= state.n)) {
        out.ignored++;
        continue;
      }
      if (removed.has(doc.from) || (doc.kind === 'pausePoint' && doc.n < (floors.get(doc.id) ?? 0))) {
        out.refused++;
        continue;
      }
      // Through the inert path's rules for a paired device's records (src/inert/admit-synced.ts): ids, times.
      const admitted = admit(doc, ctx.now());
      if (!admitted) {
        out.refused++;
        continue;
      }
      doc = admitted;
      // Awaited only when it is a promise: Dexie keeps its transaction across awaits of its own promises only, and a loop
      // awaiting plain values for a page of records to be written later loses it (PrematureCommitError).
      const applying = applyOne(doc);
      const verdict = typeof applying === 'string' ? applying : await applying;
      if (verdict === 'applied') out.applied++;
      else if (verdict === 'ignored') out.ignored++;
      else out.refused++;
      if (verdict !== 'refused') mark();
    }
    await db.conversations.bulkPut([...puts.conversations.values()]);
    await db.messages.bulkPut([...puts.messages.values()]);
    await db.ledger.bulkPut([...puts.ledger.values()]);
    await db.pausePoints.bulkPut([...puts.pausePoints.values()]);
    await refoldRules(db, refold);
    if (refold.size > 0) await releaseRuleFloors(db);
    await db.syncDocs.bulkPut(seen);

    /** A record's verdict at once (it is written with the page's); the other kinds read or write as they go. */
    function applyOne(doc: SyncDocument): Verdict | Promise<Verdict> {
      switch (doc.kind) {
        case 'conversation': {
          const record = doc.record;
          if (runsHere(record.id)) return 'ignored';
          conversations.set(record.id, record);
          puts.conversations.set(record.id, record);
          return 'applied';
        }
        case 'message':
        case 'ledger': {
          const record = doc.record;
          if (runsHere(record.conversationId)) return 'ignored';
          if (!fromOwner(record.conversationId, doc.from)) return 'refused';
          if (doc.kind === 'message') puts.messages.set(doc.record.id, doc.record);
          else puts.ledger.set(doc.record.id, doc.record);
          return 'applied';
        }
        case 'pausePoint': {
          const record = doc.record;
          if (runsHere(record.conversationId)) return 'ignored';
          if (!fromOwner(record.conversationId, doc.from)) return 'refused';
          const before = cards.get(record.id);
          cards.set(record.id, record);
          puts.pausePoints.set(record.id, record);
          if (record.status === 'pending' && before?.status !== 'pending') out.newCards.push(record);
          return 'applied';
        }
        case 'stop':
          // Seen once only (its counter), so a stop pressed long ago does not stop a later run.
          if (runsHere(doc.record.conversationId)) out.stops.push(doc.record.conversationId);
          return 'applied';
        // A whole rule (`rule`), from a device before rule events: what it says of a rule's state decides nothing. `heads`: read when joining only.
        case 'pairingUsed':
        case 'rule':
        case 'heads':
          return 'ignored';
        default:
          return applyStored(doc);
      }
    }

    /** The few kinds that read or write beside the page's records: rule events, audit events, devices, decisions, push settings. */
    async function applyStored(doc: Exclude<SyncDocument, { kind: 'conversation' | 'message' | 'ledger' | 'pausePoint' | 'stop' | 'pairingUsed' | 'rule' | 'heads' }>): Promise<Verdict> {
      switch (doc.kind) {
        case 'ruleEvent':
          // Immutable: one already here is this one (its id says whose and which).
          if (await db.ruleEvents.get(doc.id)) return 'ignored';
          await db.ruleEvents.add(doc.record);
          refold.add(doc.record.ruleId);
          return 'applied';
        case 'auditEvent':
          if (await db.auditEvents.get(doc.id)) return 'ignored';
          await db.auditEvents.add(doc.record);
          return 'applied';
        case 'device': {
          // A device writes its own document only (`from` is its signature's), and a key in it is never taken: keys come from the membership log.
          if (doc.record.id !== doc.id || doc.id !== doc.from) return 'refused';
          const { publicKey: _key, removed: _removed, ...device } = doc.record;
          await db.syncDevices.put({ ...device, ...(removed.has(doc.id) ? { removed: true } : {}) });
          return 'applied';
        }
        case 'pushSettings':
          // The later save stands; an earlier one is seen and kept from being applied again.
          return (await applySharedPushSettings(db, doc.record)) ? 'applied' : 'ignored';
        case 'decision': {
          const claim = doc.record;
          if (claim.pausePointId !== doc.id || claim.decidedBy.deviceId !== doc.from) return 'refused';
          const mine = await db.remoteDecisions.get(claim.pausePointId);
          // A claim of this device's still waiting to be sent has lost: another device's was created first.
          if (mine && mine.state === 'queued') await db.remoteDecisions.put({ ...mine, state: 'lost', winner: { decision: claim.decision, decidedBy: claim.decidedBy } });
          if (runsHere(claim.conversationId)) out.claims.push(claim);
          return 'applied';
        }
      }
    }
  });
  return out;
}

/**
 * A document through the inert path (admitSynced): the records of the
 * person's data checked and clamped, the sync's own kinds (devices, claims,
 * stops) as they are, each checked where it is applied.
 * Undefined when refused.
 */
function admit(doc: SyncDocument, at: number): SyncDocument | undefined {
  const from = { deviceId: doc.from, at };
  switch (doc.kind) {
    case 'conversation':
    case 'message':
    case 'pausePoint':
    case 'ledger':
    case 'ruleEvent':
    case 'auditEvent':
    case 'pushSettings': {
      const admitted = admitSynced({ kind: doc.kind, id: doc.id, record: doc.record } as SyncedRecord, from);
      return admitted.ok ? ({ ...doc, record: admitted.synced.record } as SyncDocument) : undefined;
    }
    default:
      return doc;
  }
}

function conversationIdOf(doc: SyncDocument): string | undefined {
  switch (doc.kind) {
    case 'conversation':
      return doc.record.id;
    case 'message':
    case 'pausePoint':
    case 'ledger':
    case 'decision':
    case 'stop':
      return doc.record.conversationId;
    default:
      return undefined;
  }
}
