import type { Conversation, LedgerEntry, Message, PausePoint } from '../../src/engine/records/index.ts';
import type { PausepointDb } from '../../src/storage/db.ts';

const PER_CONVERSATION = 100;
/** Conversations in use at the same time: their pause points interleave in time. */
const ACTIVE_TOGETHER = 4;
const BATCH = 5_000;
const T0 = Date.UTC(2024, 0, 1);
const STEP = 30_000;

const DEVICES = [
  { tabId: 'tab-a', deviceId: 'device-laptop', label: 'Firefox on the laptop' },
  { tabId: 'tab-b', deviceId: 'device-phone', label: 'Chrome on the phone' },
];

export interface SeedCounts {
  conversations: number;
  pausePoints: number;
  messages: number;
  ledger: number;
}

/**
 * Realistic audit data at scale: conversations of 100 pause points each, four
 * conversations active at a time, every kind of decision in proportion (mostly
 * approvals of gated calls, some declines with reasons, edits, choices, forms,
 * timeouts, abandonments, a few pending), with the messages the engine writes
 * around each (prompt, tool call, marker or result, decision, reply) and a
 * ledger entry per executed call. Written with bulkPut in batches.
 */
export async function seedBenchDb(db: PausepointDb, pausePoints: number): Promise<SeedCounts> {
  const counts: SeedCounts = { conversations: 0, pausePoints: 0, messages: 0, ledger: 0 };
  const conversationCount = Math.ceil(pausePoints / PER_CONVERSATION);
  const conversations: Conversation[] = [];
  const seq = new Array<number>(conversationCount).fill(0);
  for (let c = 0; c < conversationCount; c++) {
    const at = T0 + Math.floor(c / ACTIVE_TOGETHER) * ACTIVE_TOGETHER * PER_CONVERSATION * STEP;
    conversations.push({ v: 1, id: `conv-${c}`, title: `Conversation ${c}: campaign planning`, createdAt: at, updatedAt: at, state: { kind: 'idle' }, turns: PER_CONVERSATION, nextSeq: 0 });
  }

  let pps: PausePoint[] = [];
  let messages: Message[] = [];
  let ledger: LedgerEntry[] = [];
  const flush = async () => {
    await db.pausePoints.bulkPut(pps);
    await db.messages.bulkPut(messages);
    await db.ledger.bulkPut(ledger);
    counts.pausePoints += pps.length;
    counts.messages += messages.length;
    counts.ledger += ledger.length;
    pps = [];
    messages = [];
    ledger = [];
  };

  for (let index = 0; index < pausePoints; index++) {
    const group = Math.floor(index / (ACTIVE_TOGETHER * PER_CONVERSATION));
    const inGroup = index % (ACTIVE_TOGETHER * PER_CONVERSATION);
    const c = Math.min(group * ACTIVE_TOGETHER + (inGroup % ACTIVE_TOGETHER), conversationCount - 1);
    const turn = Math.floor(inGroup / ACTIVE_TOGETHER);
    const conversationId = `conv-${c}`;
    const createdAt = T0 + index * STEP;
    const message = (fields: Record<string, unknown>, at: number) => {
      const s = seq[c]!;
      seq[c] = s + 1;
      messages.push({ v: 1, id: `${conversationId}-m${s}`, conversationId, seq: s, createdAt: at, ...fields } as Message);
    };

    const scenario = index % 20;
    const model = scenario === 7 || scenario === 8 || scenario === 1 || scenario === 2 || scenario === 0;
    const kind = scenario === 7 ? 'choice' : scenario === 8 ? 'data_entry' : 'approval';
    const toolCallId = `call-${index}`;
    const toolName = model ? 'wait_for_approval' : index % 3 === 0 ? 'send_email' : 'create_invoice';
    const payload = model
      ? kind === 'data_entry'
        ? { type: 'object', properties: { name: { type: 'string', title: 'Name' }, seats: { type: 'number', title: 'Seats' } }, required: ['name'] }
        : null
      : { to: `list-${index % 50}@example.com`, recipients: 100 + (index % 900), subject: `Campaign ${index}: spring offers`, amount: (index % 1000) / 4 };
    const options = kind === 'choice' ? ['Send now', 'Send tomorrow 9:00', 'Do not send'] : null;

    if (turn % 2 === 0) message({ role: 'user', content: `Please prepare campaign ${index} for the ${index % 50} list and send it when ready.` }, createdAt - 2_000);
    message({ role: 'assistant', content: '', toolCalls: [{ id: toolCallId, name: toolName, arguments: JSON.stringify(payload ?? { title: 'Confirm', description: '…' }) }], turnIndex: turn, status: 'complete' }, createdAt - 1_000);
    if (model) message({ role: 'tool', toolCallId, toolName, content: `__APPROVAL_REQUIRED__pp-${index}`, outcome: 'awaiting_approval' }, createdAt);

    const decidedAt = createdAt + 10_000;
    const decidedBy = DEVICES[index % 2]!;
    const pp: PausePoint = {
      v: 1,
      id: `pp-${index.toString().padStart(6, '0')}`,
      conversationId,
      turnIndex: turn,
      title: `Send campaign ${index} to ${100 + (index % 900)} recipients`,
      description: `This sends **campaign ${index}** to the list \`list-${index % 50}\`: ${100 + (index % 900)} recipients. It cannot be undone once sent; replies go to the sales inbox.`,
      options,
      payload,
      kind,
      status: 'resolved',
      resolution: 'approve',
      resolvedAt: decidedAt,
      createdAt,
      origin: model ? 'model' : 'gate',
      toolCallId,
      toolName,
      expiresAt: null,
      decidedBy,
    };
    let executed = !model;
    if (scenario === 0) Object.assign(pp, { status: 'pending', resolution: null, resolvedAt: null, decidedBy: undefined, expiresAt: createdAt + 3_600_000 });
    else if (scenario === 1) Object.assign(pp, { status: 'expired', resolution: null, resolvedAt: decidedAt, decidedBy: undefined, expiresAt: createdAt + 60_000, expiredReason: 'timeout' });
    else if (scenario === 2) Object.assign(pp, { status: 'expired', resolution: null, resolvedAt: decidedAt, decidedBy: undefined, expiredReason: 'abandoned' });
    else if (scenario >= 3 && scenario <= 5) {
      Object.assign(pp, { resolution: 'decline', reason: 'The list has not been cleaned since the last bounce report.' });
      executed = false;
    } else if (scenario === 6) pp.editedPayload = { ...(payload as object), recipients: 50, subject: `Campaign ${index}: test batch` };
    else if (scenario === 7) Object.assign(pp, { resolution: 'Send tomorrow 9:00', reason: 'Better open rates in the morning.' });
    else if (scenario === 8) pp.resolution = { name: 'Ada Lovelace', seats: 2 };
    pps.push(pp);

    if (pp.status === 'resolved') {
      const said = typeof pp.resolution === 'string' ? pp.resolution : 'submitted';
      message({ role: 'user', content: `Approval ${kind}: ${said}${pp.reason ? ` - ${pp.reason}` : ''}`, decision: { pausePointId: pp.id } }, decidedAt);
    } else if (pp.status === 'expired') {
      // As the engine does for the model's own cards (gated calls are answered by their tool result).
      const why = pp.expiredReason === 'abandoned' ? 'the user sent a new message instead of deciding' : 'no decision was made before it expired';
      message({ role: 'user', content: `Approval ${kind}: expired - ${why}`, decision: { pausePointId: pp.id } }, decidedAt);
    }
    if (!model) {
      const args = pp.editedPayload ?? payload;
      if (executed) {
        ledger.push({ v: 1, id: `${conversationId}:${toolCallId}`, conversationId, toolCallId, toolName, args, status: 'succeeded', attempts: 1, startedAt: decidedAt, finishedAt: decidedAt + 800, result: `Queued ${100 + (index % 900)} messages; batch id b-${index}.` });
        message({ role: 'tool', toolCallId, toolName, content: `Queued ${100 + (index % 900)} messages; batch id b-${index}.`, outcome: 'done' }, decidedAt + 800);
      } else if (pp.status === 'resolved') {
        message({ role: 'tool', toolCallId, toolName, content: `The user declined this call: ${pp.reason ?? ''}`, outcome: 'declined' }, decidedAt);
      }
    }
    if (turn % 2 === 1) message({ role: 'assistant', content: `Done with campaign ${index}. Anything else for the ${index % 50} list?`, toolCalls: [], turnIndex: turn, status: 'complete' }, decidedAt + 1_000);

    if (pps.length >= BATCH) await flush();
  }
  await flush();
  for (const conversation of conversations) conversation.nextSeq = seq[Number(conversation.id.slice(5))]!;
  await db.conversations.bulkPut(conversations);
  counts.conversations = conversations.length;
  return counts;
}
