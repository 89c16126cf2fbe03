import type { Decision } from '../decision.ts';
import type { ClaimOutcome, DevicesPort } from '../devices-port.ts';
import type { DecidedBy, DeviceSignature, OwnerDevice, PausePoint } from '../records/index.ts';

/** The sync server's decisions, as the engine meets them: one per card, the first create wins. */
export class MemoryClaimServer {
  readonly claims = new Map<string, { decision: Decision; decidedBy: DecidedBy; signature?: DeviceSignature }>();
  reachable = true;
}

/** A device paired through a `MemoryClaimServer`, for engine tests; `queued` keeps what it could not send. */
export class MemoryDevices implements DevicesPort {
  readonly queued: { pausePointId: string; decision: Decision; decidedBy: DecidedBy }[] = [];
  readonly stopsRequested: string[] = [];
  readonly syncing = true;

  constructor(
    readonly server: MemoryClaimServer,
    readonly device: OwnerDevice,
  ) {}

  ownerForNew(): OwnerDevice {
    return this.device;
  }

  runsHere(owner: OwnerDevice | undefined): boolean {
    return owner === undefined || owner.id === this.device.id;
  }

  async claim(pausePoint: PausePoint, decision: Decision, decidedBy: DecidedBy, signature?: DeviceSignature): Promise<ClaimOutcome> {
    if (!this.server.reachable) {
      this.queued.push({ pausePointId: pausePoint.id, decision, decidedBy });
      return { outcome: 'queued' };
    }
    const first = this.server.claims.get(pausePoint.id);
    if (first) return { outcome: 'lost', ...first };
    this.server.claims.set(pausePoint.id, { decision, decidedBy, ...(signature ? { signature } : {}) });
    return { outcome: 'won' };
  }

  async requestStop(conversationId: string): Promise<void> {
    this.stopsRequested.push(conversationId);
  }
}
