import { decisionView } from '../../engine/decision-view.ts';
import { outcomeSigned } from '../../engine/signed-decision.ts';
import { viewHash } from '../../engine/view-hash.ts';
import type { DeviceIdentity } from '../../identity/device-identity.ts';
import { signObject } from '../../identity/device-signature.ts';
import { deviceIdentity } from '../../identity/identity-store.ts';
import type { PausepointDb } from '../../storage/db.ts';

/**
 * Signs the seeded decisions as the engine would have when they were made
 * (src/engine/signed-decision.ts): each decided card by this device's
 * identity, or by `others[deviceId]` for one decided on another device.
 */
export async function signSeededDecisions(db: PausepointDb, others: Record<string, DeviceIdentity> = {}): Promise<void> {
  const own = await deviceIdentity(db);
  for (const pp of await db.pausePoints.toArray()) {
    if (pp.status === 'pending') continue;
    const by = pp.decidedBy && Object.hasOwn(others, pp.decidedBy.deviceId) ? others[pp.decidedBy.deviceId]! : own;
    const card = { ...pp, status: 'pending' as const, resolution: null, resolvedAt: null };
    const signed = outcomeSigned(pp, pp.viewHash ?? viewHash(decisionView({ pause: card })));
    await db.pausePoints.put({ ...pp, deviceSignature: await signObject(by, { ...signed }) });
  }
}
