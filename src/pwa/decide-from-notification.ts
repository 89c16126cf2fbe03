import { decisionSettlement } from '../engine/decision-settlement.ts';
import type { Decision } from '../engine/decision.ts';
import type { DecidedBy, PausePoint } from '../engine/records/index.ts';
import { personSigned } from '../engine/signed-decision.ts';
import { SignedOutcomes } from '../engine/signed-outcomes.ts';
import { ToolRegistry } from '../engine/tool-registry.ts';
import { signObject } from '../identity/device-signature.ts';
import { deviceIdentity } from '../identity/identity-store.ts';
import type { PausepointDb } from '../storage/db.ts';
import { DexieStorage } from '../storage/dexie-storage.ts';
import { listedToolChanged } from '../mcp/listed-tool-changed.ts';
import { acceptsNotificationActions, definitionChanged, type NotificationAction } from './approval-notification.ts';

/** Who decided: the conversation's next run is left to whichever tab takes it over (see decisionSettlement). */
export const SERVICE_WORKER_OWNER = 'service-worker';

export type NotificationDecision =
  | { outcome: 'decided'; pausePoint: PausePoint }
  | { outcome: 'already_decided'; pausePoint: PausePoint }
  | { outcome: 'expired'; pausePoint: PausePoint }
  | { outcome: 'not_found' }
  | { outcome: 'refused'; message: string }
  /** The card's conversation runs on another device: the decision goes through the sync server, which a tab's worker claims. */
  | { outcome: 'elsewhere' };

// A plain approve or decline checks no tool's input schema: no tools are needed to validate it.
const NO_TOOLS = new ToolRegistry([]);

/**
 * Records a notification's Approve or Decline through the same
 * compare-and-set as a card's buttons (`DexieStorage.settlePausePoint` with
 * the engine's `decisionSettlement`): the first decision wins, the decision
 * message and the conversation's state are written in its transaction, and
 * the pause point — the audit record — carries `decidedBy` like any other.
 * A card that needs input, one whose notification could not show the whole
 * call, or one of a tool that changed, is refused in the same transaction —
 * whatever the notification offered (an older build's may have offered more):
 * the notification then opens the card.
 */
export async function decideFromNotification(
  db: PausepointDb,
  pausePointId: string,
  action: NotificationAction,
  decidedBy: DecidedBy,
  {
    now = Date.now,
    uuid = () => crypto.randomUUID(),
    viewHash,
  }: {
    now?: () => number;
    uuid?: () => string;
    /** The hash of the decision view the notification showed (sw/approvals.ts): the decision is bound to it. */
    viewHash?: string | undefined;
  } = {},
): Promise<NotificationDecision> {
  const decision: Decision = { type: action === 'approve' ? 'approve' : 'decline', ...(viewHash ? { viewHash } : {}) };
  // A card of a conversation another device runs is decided through the sync server, by the app: not here.
  if (await runsElsewhere(db, pausePointId)) return { outcome: 'elsewhere' };
  const ctx = { clock: { now, sleep: () => Promise.resolve() }, ids: { uuid }, tools: NO_TOOLS, owner: SERVICE_WORKER_OWNER };
  const at = now();
  const changed = await toolChanged(db, pausePointId);
  const listedChanged = await viewToolChanged(db, pausePointId);
  // Signed by this device before the compare-and-set, as a press in the app is (src/engine/signed-decision.ts).
  const identity = await deviceIdentity(db);
  const signature = await signObject(identity, { ...personSigned(pausePointId, decision, at) });
  // A card found past its time is expired signed too, as from a tab (src/engine/signed-outcomes.ts).
  const outcomes = new SignedOutcomes({ tools: NO_TOOLS, signer: { sign: (signed) => signObject(identity, signed) } });
  const storage = new DexieStorage(db);
  const settled = await outcomes.settle(() =>
    storage.settlePausePoint(pausePointId, (pending) =>
      acceptsNotificationActions(pending, { definitionChanged: changed, toolChanged: listedChanged })
        ? decisionSettlement(ctx, pending, decision, decidedBy, at, undefined, listedChanged, signature, outcomes)
        : { commit: false, reason: 'This card needs an answer in the app.' },
    ),
  );
  if (settled.ok) {
    return { outcome: settled.pausePoint.status === 'expired' ? 'expired' : 'decided', pausePoint: settled.pausePoint };
  }
  switch (settled.reason) {
    case 'already_decided':
      return { outcome: 'already_decided', pausePoint: settled.pausePoint };
    case 'expired':
      return { outcome: 'expired', pausePoint: settled.pausePoint };
    case 'not_found':
      return { outcome: 'not_found' };
    case 'refused':
      return { outcome: 'refused', message: settled.message };
  }
}

/**
 * Whether the card's MCP tool changed since, by the stored servers, as the
 * decision view reads it (src/mcp/listed-tool-changed.ts): the same when the
 * notification is shown and when its action arrives, so a change between the
 * two changes the view's hash and the action is refused.
 */
export async function viewToolChanged(db: PausepointDb, pausePointId: string): Promise<boolean> {
  const pause = await db.pausePoints.get(pausePointId);
  return pause?.mcp ? listedToolChanged(pause, await db.mcpServers.toArray()) : false;
}

/** Whether the card's conversation runs on another of the person's devices (src/sync), which only the app can decide for. */
async function runsElsewhere(db: PausepointDb, pausePointId: string): Promise<boolean> {
  const pause = await db.pausePoints.get(pausePointId);
  const owner = pause && (await db.conversations.get(pause.conversationId))?.ownerDevice;
  if (!owner) return false;
  return owner.id !== (await db.settings.get('deviceId'))?.value;
}

/**
 * Whether a card's tool changed (see `definitionChanged`), read before the
 * decision's transaction, whose tables the MCP servers are not among: a change
 * listed by a tab in the few milliseconds between the two reads goes unseen
 * here, as it would by a person who pressed a card's Approve just then.
 */
export async function toolChanged(db: PausepointDb, pausePointId: string): Promise<boolean> {
  const pause = await db.pausePoints.get(pausePointId);
  if (!pause) return false;
  return definitionChanged(pause, pause.mcp ? await db.mcpServers.toArray() : []);
}
