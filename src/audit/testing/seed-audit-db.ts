import type { Conversation, LedgerEntry, Message, PausePoint } from '../../engine/records/index.ts';
import type { PausepointDb } from '../../storage/db.ts';
import { saveSettings } from '../../storage/settings-repo.ts';

/** A key no export may ever contain: tests search the output for it. */
export const CANARY_API_KEY = 'sk-AUDIT-CANARY-7f3a9c1e5b2d4f6a8c0e';

export const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
export const MINUTE = 60_000;

export const DEVICE = { tabId: 'tab-1', deviceId: 'device-laptop', label: 'Firefox on the laptop' };
export const OTHER_DEVICE = { tabId: 'tab-9', deviceId: 'device-phone', label: 'Chrome on the phone' };

/**
 * Ids of the seeded pause points by scenario. Every decision the product knows
 * appears once: plain approval, approval with an edited payload, decline with a
 * reason, a choice with a reply, form data, expiry by timeout, abandonment, a
 * pending card, an unknown outcome after a crash, and two gated calls in one turn.
 */
export const SCENARIO = {
  approved: 'pp-01-approved',
  edited: 'pp-02-edited',
  declined: 'pp-03-declined',
  choice: 'pp-04-choice',
  form: 'pp-05-form',
  timeout: 'pp-06-timeout',
  abandoned: 'pp-07-abandoned',
  pending: 'pp-08-pending',
  unknown: 'pp-09-unknown',
  sameTurnA: 'pp-10-same-turn-a',
  sameTurnB: 'pp-11-same-turn-b',
} as const;

export interface Builder {
  conversations: Conversation[];
  messages: Message[];
  pausePoints: PausePoint[];
  ledger: LedgerEntry[];
}

export class ConversationBuilder {
  #seq = 0;
  #turn = 0;
  constructor(
    private readonly out: Builder,
    readonly id: string,
    title: string,
    createdAt: number,
  ) {
    out.conversations.push({ v: 1, id, title, createdAt, updatedAt: createdAt, state: { kind: 'idle' }, turns: 0, nextSeq: 0 });
  }

  user(content: string, at: number, decision?: string): void {
    const message: Message = { v: 1, id: `${this.id}-m${this.#seq}`, conversationId: this.id, seq: this.#seq++, createdAt: at, role: 'user', content };
    if (decision) message.decision = { pausePointId: decision };
    this.out.messages.push(message);
  }

  /** An assistant message making these tool calls; returns its turn index. */
  calls(at: number, calls: { id: string; name: string; arguments: string }[]): number {
    const turnIndex = this.#turn++;
    this.out.messages.push({
      v: 1,
      id: `${this.id}-m${this.#seq}`,
      conversationId: this.id,
      seq: this.#seq++,
      createdAt: at,
      role: 'assistant',
      content: '',
      toolCalls: calls,
      turnIndex,
      status: 'complete',
    });
    return turnIndex;
  }

  tool(toolCallId: string, toolName: string, content: string, outcome: Extract<Message, { role: 'tool' }>['outcome'], at: number): void {
    this.out.messages.push({ v: 1, id: `${this.id}-m${this.#seq}`, conversationId: this.id, seq: this.#seq++, createdAt: at, role: 'tool', toolCallId, toolName, content, outcome });
  }

  pause(pp: Omit<PausePoint, 'v' | 'conversationId' | 'expiresAt'> & { expiresAt?: number | null }): void {
    this.out.pausePoints.push({ v: 1, conversationId: this.id, expiresAt: null, ...pp });
  }

  ledger(toolCallId: string, toolName: string, args: unknown, status: LedgerEntry['status'], startedAt: number, finishedAt: number | null, attempts = 1): void {
    this.out.ledger.push({ v: 1, id: `${this.id}:${toolCallId}`, conversationId: this.id, toolCallId, toolName, args, status, attempts, startedAt, finishedAt, result: status === 'succeeded' ? 'ok' : null });
  }
}

/** The records of the audit scenarios, built without a database (component tests use them too). */
export function auditScenarioRecords(): Builder {
  const out: Builder = { conversations: [], messages: [], pausePoints: [], ledger: [] };
  const at = (minutes: number) => T0 + minutes * MINUTE;

  const mail = new ConversationBuilder(out, 'conv-mail', 'Spring newsletter', at(0));
  mail.user('Send the spring newsletter to the customer list.', at(0));
  const sendArgs = { list: 'customers', recipients: 1200, subject: 'Spring news' };
  let turn = mail.calls(at(1), [{ id: 'call-send-1', name: 'send_email', arguments: JSON.stringify(sendArgs) }]);
  mail.pause({
    id: SCENARIO.approved, turnIndex: turn, title: 'Send 1,200 emails', description: 'Send **Spring news** to 1,200 customers. Cannot be undone.',
    options: null, payload: sendArgs, kind: 'approval', status: 'resolved', resolution: 'approve', resolvedAt: at(3), createdAt: at(1),
    origin: 'gate', toolCallId: 'call-send-1', toolName: 'send_email', decidedBy: DEVICE,
  });
  mail.user('Approval approval: approve', at(3), SCENARIO.approved);
  mail.ledger('call-send-1', 'send_email', sendArgs, 'succeeded', at(3), at(4));
  mail.tool('call-send-1', 'send_email', 'Sent 1,200 emails.', 'done', at(4));

  const editedArgs = { list: 'customers', recipients: 300, subject: 'Spring news (EU)' };
  const proposed = { list: 'customers', recipients: 1200, subject: 'Spring news', cc: 'boss@example.com' };
  turn = mail.calls(at(10), [{ id: 'call-send-2', name: 'send_email', arguments: JSON.stringify(proposed) }]);
  mail.pause({
    id: SCENARIO.edited, turnIndex: turn, title: 'Send the follow-up', description: 'Follow-up to 1,200 customers.',
    options: null, payload: proposed, kind: 'approval', status: 'resolved', resolution: 'approve', resolvedAt: at(12), createdAt: at(10),
    origin: 'gate', toolCallId: 'call-send-2', toolName: 'send_email', editedPayload: editedArgs, decidedBy: OTHER_DEVICE,
  });
  mail.user(`Approval approval: approve\n${JSON.stringify(editedArgs)}`, at(12), SCENARIO.edited);
  mail.ledger('call-send-2', 'send_email', editedArgs, 'succeeded', at(12), at(13), 2);
  mail.tool('call-send-2', 'send_email', 'Sent 300 emails (arguments edited by the user).', 'done', at(13));

  const deleteArgs = { list: 'customers' };
  turn = mail.calls(at(20), [{ id: 'call-del', name: 'delete_list', arguments: JSON.stringify(deleteArgs) }]);
  mail.pause({
    id: SCENARIO.declined, turnIndex: turn, title: 'Delete the customer list', description: 'Deletes 1,200 contacts permanently.',
    options: null, payload: deleteArgs, kind: 'approval', status: 'resolved', resolution: 'decline', resolvedAt: at(21), createdAt: at(20),
    origin: 'gate', toolCallId: 'call-del', toolName: 'delete_list', reason: 'We still need it for the autumn campaign', decidedBy: DEVICE,
  });
  mail.user('Approval approval: decline - We still need it for the autumn campaign', at(21), SCENARIO.declined);
  mail.tool('call-del', 'delete_list', 'The user declined this call: We still need it for the autumn campaign', 'declined', at(21));

  const trip = new ConversationBuilder(out, 'conv-trip', 'Trip to Lyon', at(30));
  trip.user('Book me a trip to Lyon.', at(30));
  const choiceArgs = { title: 'How to travel?', description: 'Pick one.', options: ['Train', 'Flight'] };
  turn = trip.calls(at(31), [{ id: 'call-ask-1', name: 'wait_for_approval', arguments: JSON.stringify(choiceArgs) }]);
  trip.tool('call-ask-1', 'wait_for_approval', `__APPROVAL_REQUIRED__${SCENARIO.choice}`, 'awaiting_approval', at(31));
  trip.pause({
    id: SCENARIO.choice, turnIndex: turn, title: 'How to travel?', description: 'Pick one.', options: ['Train', 'Flight'], payload: null,
    kind: 'choice', status: 'resolved', resolution: 'Train', resolvedAt: at(33), createdAt: at(31), origin: 'model',
    toolCallId: 'call-ask-1', toolName: 'wait_for_approval', reason: 'Lower emissions', decidedBy: DEVICE,
  });
  trip.user('Approval choice: Train - Lower emissions', at(33), SCENARIO.choice);

  const form = { type: 'object', properties: { name: { type: 'string', title: 'Name' }, seats: { type: 'number', title: 'Seats' } }, required: ['name'] };
  turn = trip.calls(at(40), [{ id: 'call-ask-2', name: 'wait_for_approval', arguments: JSON.stringify({ title: 'Passenger details', kind: 'data_entry', payload: form }) }]);
  trip.tool('call-ask-2', 'wait_for_approval', `__APPROVAL_REQUIRED__${SCENARIO.form}`, 'awaiting_approval', at(40));
  trip.pause({
    id: SCENARIO.form, turnIndex: turn, title: 'Passenger details', description: 'Who travels?', options: null, payload: form,
    kind: 'data_entry', status: 'resolved', resolution: { name: 'Ada Lovelace', seats: 2 }, resolvedAt: at(42), createdAt: at(40),
    origin: 'model', toolCallId: 'call-ask-2', toolName: 'wait_for_approval', decidedBy: OTHER_DEVICE,
  });
  trip.user('Approval data_entry: submitted\n{"name":"Ada Lovelace","seats":2}', at(42), SCENARIO.form);

  turn = trip.calls(at(50), [{ id: 'call-ask-3', name: 'wait_for_approval', arguments: '{"title":"Pay the deposit","description":"€120"}' }]);
  trip.tool('call-ask-3', 'wait_for_approval', `__APPROVAL_REQUIRED__${SCENARIO.timeout}`, 'awaiting_approval', at(50));
  trip.pause({
    id: SCENARIO.timeout, turnIndex: turn, title: 'Pay the deposit', description: '€120, refundable until Friday.', options: null,
    payload: { amount: 120, currency: 'EUR' }, kind: 'approval', status: 'expired', resolution: null, resolvedAt: at(111), createdAt: at(50),
    expiresAt: at(110), expiredReason: 'timeout', origin: 'model', toolCallId: 'call-ask-3', toolName: 'wait_for_approval',
  });
  trip.user('Approval approval: expired - no decision was made before it expired', at(111), SCENARIO.timeout);

  turn = trip.calls(at(120), [{ id: 'call-ask-4', name: 'wait_for_approval', arguments: '{"title":"Book the hotel"' }]);
  trip.tool('call-ask-4', 'wait_for_approval', `__APPROVAL_REQUIRED__${SCENARIO.abandoned}`, 'awaiting_approval', at(120));
  trip.pause({
    id: SCENARIO.abandoned, turnIndex: turn, title: 'Book the hotel', description: 'Hôtel du Parc, 2 nights.', options: null, payload: null,
    kind: 'approval', status: 'expired', resolution: null, resolvedAt: at(125), createdAt: at(120), expiredReason: 'abandoned',
    origin: 'model', toolCallId: 'call-ask-4', toolName: 'wait_for_approval',
  });
  trip.user('Approval approval: expired - the user sent a new message instead of deciding', at(125), SCENARIO.abandoned);
  trip.user('Actually, never mind the hotel.', at(125));

  const ops = new ConversationBuilder(out, 'conv-ops', 'Server cleanup', at(200));
  ops.user('Clean up the old backups and restart the server.', at(200));
  const wipe = { path: '/backups/2023', recursive: true };
  turn = ops.calls(at(201), [{ id: 'call-wipe', name: 'delete_files', arguments: JSON.stringify(wipe) }]);
  ops.ledger('call-wipe', 'delete_files', wipe, 'unknown', at(202), null);
  // The engine asks this way when a tab died mid-execution (see settle-open-calls.ts).
  ops.pause({
    id: SCENARIO.unknown, turnIndex: turn, title: 'Did “delete_files” finish?', description: 'Pausepoint was interrupted while **delete_files** was running.',
    options: ['Run again', 'Treat as done', 'Skip'], payload: wipe, kind: 'choice', status: 'resolved', resolution: 'Skip', resolvedAt: at(230),
    createdAt: at(229), origin: 'unknown_outcome', toolCallId: 'call-wipe', toolName: 'delete_files', reason: 'Do not run it again', decidedBy: DEVICE,
  });
  ops.user('Approval choice: Skip - Do not run it again', at(230), SCENARIO.unknown);
  ops.tool('call-wipe', 'delete_files', 'Not run: the user chose to skip this call after an interruption.', 'skipped', at(230));

  const restartA = { host: 'web-1' };
  const restartB = { host: 'web-2' };
  turn = ops.calls(at(240), [
    { id: 'call-restart-a', name: 'restart', arguments: JSON.stringify(restartA) },
    { id: 'call-restart-b', name: 'restart', arguments: JSON.stringify(restartB) },
  ]);
  // Both created in the same millisecond: the id breaks the tie, in the view and in the export.
  for (const [id, call, args] of [[SCENARIO.sameTurnA, 'call-restart-a', restartA], [SCENARIO.sameTurnB, 'call-restart-b', restartB]] as const) {
    ops.pause({
      id, turnIndex: turn, title: `Restart ${args.host}`, description: 'About 30 s of downtime.', options: null, payload: args,
      kind: 'approval', status: 'resolved', resolution: 'approve', resolvedAt: at(241), createdAt: at(240),
      origin: 'gate', toolCallId: call, toolName: 'restart', decidedBy: DEVICE,
    });
  }
  ops.user('Approval approval: approve', at(241), SCENARIO.sameTurnA);
  ops.user('Approval approval: approve', at(241), SCENARIO.sameTurnB);
  ops.ledger('call-restart-a', 'restart', restartA, 'succeeded', at(241), at(242));
  ops.ledger('call-restart-b', 'restart', restartB, 'failed', at(241), at(242), 3);
  ops.tool('call-restart-a', 'restart', 'web-1 restarted.', 'done', at(242));
  ops.tool('call-restart-b', 'restart', 'web-2 did not come back.', 'failed', at(242));

  turn = ops.calls(at(300), [{ id: 'call-ask-5', name: 'wait_for_approval', arguments: '{"title":"Rotate the keys?"}' }]);
  ops.tool('call-ask-5', 'wait_for_approval', `__APPROVAL_REQUIRED__${SCENARIO.pending}`, 'awaiting_approval', at(300));
  ops.pause({
    id: SCENARIO.pending, turnIndex: turn, title: 'Rotate the keys?', description: 'Rotates the deploy keys.', options: null, payload: null,
    kind: 'approval', status: 'pending', resolution: null, resolvedAt: null, createdAt: at(300), expiresAt: at(360),
    origin: 'model', toolCallId: 'call-ask-5', toolName: 'wait_for_approval',
  });
  return out;
}

/** Writes the scenarios and settings holding `CANARY_API_KEY` into `db`. */
export async function seedAuditDb(db: PausepointDb): Promise<Builder> {
  const records = auditScenarioRecords();
  await db.transaction('rw', [db.conversations, db.messages, db.pausePoints, db.ledger], async () => {
    await db.conversations.bulkPut(records.conversations);
    await db.messages.bulkPut(records.messages);
    await db.pausePoints.bulkPut(records.pausePoints);
    await db.ledger.bulkPut(records.ledger);
  });
  await saveSettings(db, { provider: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: CANARY_API_KEY, model: 'gpt-4o-mini' });
  return records;
}
