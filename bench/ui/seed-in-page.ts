import type { Conversation, LedgerEntry, Message, PausePoint } from '../../src/engine/records/index.ts';

/**
 * What to write into the app's IndexedDB. Every conversation has the same shape:
 * blocks of ten messages, each block raising one pause point (so messages / 10
 * pause points per conversation), and `pendingConversations` of them, spread
 * evenly, end paused on a pending card.
 */
export interface SeedPlan {
  conversations: number;
  /** A multiple of 10. */
  messagesPerConversation: number;
  pendingConversations: number;
  /** The `settings` row's value, stored as is. */
  settings: Record<string, unknown>;
  /** Newest conversation's last activity, in ms since the epoch. */
  now: number;
}

export interface SeededCard {
  id: string;
  title: string;
  conversationId: string;
}

export interface SeedSummary {
  conversations: number;
  messages: number;
  pausePoints: number;
  pending: number;
  ledger: number;
  /** The oldest pending card: the first one the Approvals inbox lists (null when the plan has none). */
  firstPending: SeededCard | null;
  ms: number;
}

/**
 * Runs IN THE PAGE (through `page.evaluate`), so it must stay self-contained:
 * no imports at run time, no references to module scope. Writes with raw
 * IndexedDB into the database the app's Dexie has already created (the built
 * app does not expose its Dexie), one transaction per batch of about 10,000
 * messages. The app's open live queries do not see these writes (Dexie only
 * hears its own): reload the page afterwards.
 */
export async function seedInPage(plan: SeedPlan): Promise<SeedSummary> {
  const started = performance.now();
  const STORES = ['conversations', 'messages', 'pausePoints', 'ledger', 'notes', 'settings'];
  const MESSAGE_BATCH = 10_000;
  const STEP_MS = 30_000;

  // Opening a database that does not exist yet would create an empty version 1
  // under the app's feet: wait until the app's Dexie has created it.
  async function openAppDb(): Promise<IDBDatabase> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const known = await indexedDB.databases();
      if (known.some((d) => d.name === 'pausepoint' && (d.version ?? 0) > 0)) {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const request = indexedDB.open('pausepoint');
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error ?? new Error('indexedDB.open failed'));
        });
        if (STORES.every((s) => db.objectStoreNames.contains(s))) return db;
        db.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('The app did not create its IndexedDB database "pausepoint" within 10 s');
  }

  function write(db: IDBDatabase, rows: Record<string, readonly unknown[]>): Promise<void> {
    return new Promise((resolve, reject) => {
      const tx = db.transaction(Object.keys(rows), 'readwrite');
      for (const [store, list] of Object.entries(rows)) {
        const target = tx.objectStore(store);
        for (const row of list) target.put(row);
      }
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
    });
  }

  // Deterministic text of realistic length (100–400 characters).
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const WORDS = (
    'the invoice for march is ready and the client asked whether we could send it today before the quarterly review ' +
    'please check the numbers against the ledger then draft a short summary with the totals and any open items ' +
    'I found three entries that look duplicated, so I left them out until you confirm which account they belong to ' +
    'the **payment** goes to `acct-204` and the report lists every line item with its date amount and reference'
  ).split(' ');
  const text = () => {
    const length = 100 + Math.floor(random() * 300);
    let out = '';
    while (out.length < length) out += (out ? ' ' : '') + WORDS[Math.floor(random() * WORDS.length)];
    return out.slice(0, length);
  };

  const db = await openAppDb();
  const blocks = Math.floor(plan.messagesPerConversation / 10);
  const pendingStep = Math.max(1, Math.floor(plan.conversations / Math.max(1, plan.pendingConversations)));
  const counts = { conversations: 0, messages: 0, pausePoints: 0, pending: 0, ledger: 0 };
  let firstPending: SeededCard | undefined;
  let firstPendingAt = Infinity;

  let conversations: Conversation[] = [];
  let messages: Message[] = [];
  let pausePoints: PausePoint[] = [];
  let ledger: LedgerEntry[] = [];
  const flush = async () => {
    await write(db, { conversations, messages, pausePoints, ledger });
    counts.conversations += conversations.length;
    counts.messages += messages.length;
    counts.pausePoints += pausePoints.length;
    counts.ledger += ledger.length;
    conversations = [];
    messages = [];
    pausePoints = [];
    ledger = [];
  };

  await write(db, { settings: [{ key: 'settings', value: plan.settings }] });

  for (let c = 0; c < plan.conversations; c++) {
    const conversationId = `bench-c${String(c).padStart(4, '0')}`;
    const pending = c % pendingStep === pendingStep - 1 && counts.pending < plan.pendingConversations;
    // Older conversations first; the newest ends at `plan.now`.
    const start = plan.now - (plan.conversations - c) * plan.messagesPerConversation * STEP_MS;
    let seq = 0;
    const at = () => start + seq * STEP_MS;
    const push = (fields: Record<string, unknown>) => {
      messages.push({ v: 1, id: `${conversationId}-m${seq}`, conversationId, seq, createdAt: at(), ...fields } as Message);
      seq++;
    };
    const chat = (count: number) => {
      for (let i = 0; i < count; i++) {
        if (seq % 2 === 0) push({ role: 'user', content: text() });
        else push({ role: 'assistant', content: text(), toolCalls: [], turnIndex: seq, status: 'complete' });
      }
    };

    for (let b = 0; b < blocks; b++) {
      const n = c * blocks + b;
      const ppId = `bench-pp-${String(n).padStart(6, '0')}`;
      const toolCallId = `call-${b}`;
      const isPending = pending && b === blocks - 1;
      const gated = !isPending && b % 3 !== 0;
      const toolName = gated ? (b % 3 === 1 ? 'http_request' : 'save_note') : 'wait_for_approval';
      const args = gated
        ? { url: `https://billing.example.com/invoices/${n}`, method: 'POST', body: { amount: 100 + (n % 900), currency: 'EUR' } }
        : { title: `Approve payment #${n}`, description: `Pay **€${100 + (n % 900)}** to supplier ${n % 50}. This cannot be undone.` };
      const title = gated ? `POST https://billing.example.com/invoices/${n}` : `Approve payment #${n}`;
      if (isPending) chat(8);
      else push({ role: 'user', content: text() });
      const callAt = at();
      push({ role: 'assistant', content: text(), toolCalls: [{ id: toolCallId, name: toolName, arguments: JSON.stringify(args) }], turnIndex: seq, status: 'complete' });

      const roll = n % 20;
      const status: PausePoint['status'] = isPending ? 'pending' : roll === 19 ? 'expired' : 'resolved';
      const declined = status === 'resolved' && roll >= 17;
      const decidedAt = callAt + STEP_MS;
      pausePoints.push({
        v: 1,
        id: ppId,
        conversationId,
        turnIndex: b,
        title,
        description: gated ? `The agent wants to send this request. ${text()}` : `Pay **€${100 + (n % 900)}** to supplier ${n % 50}. ${text()}`,
        options: null,
        payload: gated ? args : null,
        kind: 'approval',
        status,
        resolution: status === 'resolved' ? (declined ? 'decline' : 'approve') : null,
        resolvedAt: status === 'pending' ? null : decidedAt,
        createdAt: callAt,
        origin: gated ? 'gate' : 'model',
        toolCallId,
        toolName,
        ...(declined ? { reason: 'Not this month: the budget is already spent.' } : {}),
        expiresAt: null,
        ...(status === 'expired' ? { expiredReason: 'abandoned' as const } : {}),
        ...(status === 'resolved' ? { decidedBy: { tabId: 'tab-bench', deviceId: 'device-bench', label: 'Chromium on the bench' } } : {}),
      });

      if (isPending) {
        push({ role: 'tool', toolCallId, toolName, content: `__APPROVAL_REQUIRED__${ppId}`, outcome: 'awaiting_approval' });
        counts.pending++;
        if (callAt < firstPendingAt) {
          firstPendingAt = callAt;
          firstPending = { id: ppId, title, conversationId };
        }
        continue;
      }
      if (gated) {
        const ran = status === 'resolved' && !declined;
        if (ran) {
          ledger.push({ v: 1, id: `${conversationId}:${toolCallId}`, conversationId, toolCallId, toolName, args, status: 'succeeded', attempts: 1, startedAt: decidedAt, finishedAt: decidedAt + 400, result: '{"status":201}' });
        }
        push({ role: 'tool', toolCallId, toolName, content: ran ? `{"status":201,"body":"${text()}"}` : 'Not run: the user declined.', outcome: ran ? 'done' : status === 'expired' ? 'expired' : 'declined' });
        push({ role: 'assistant', content: text(), toolCalls: [], turnIndex: seq, status: 'complete' });
      } else {
        push({ role: 'tool', toolCallId, toolName, content: `__APPROVAL_REQUIRED__${ppId}`, outcome: 'awaiting_approval' });
        push({ role: 'user', content: `Approval approval: ${status === 'expired' ? 'expired' : declined ? 'decline' : 'approve'}`, decision: { pausePointId: ppId } });
      }
      chat(6);
    }

    const last = messages[messages.length - 1];
    conversations.push({
      v: 1,
      id: conversationId,
      title: `Invoices and payments, batch ${c}`,
      createdAt: start,
      updatedAt: last ? last.createdAt : start,
      state: pending ? { kind: 'paused', pending: 1 } : { kind: 'idle' },
      turns: seq,
      nextSeq: seq,
    });
    if (messages.length >= MESSAGE_BATCH) await flush();
  }
  await flush();
  db.close();

  return { ...counts, firstPending: firstPending ?? null, ms: performance.now() - started };
}
