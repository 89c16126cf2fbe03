import type { DevicesPort } from './devices-port.ts';
import { CallerError } from './errors.ts';
import { isActive, type Conversation } from './records/index.ts';

/** The conversation, if this device runs it; a `CallerError` (inside the caller's transaction) if another does. */
export function runnableHere(devices: DevicesPort, conversation: Conversation): Conversation {
  if (devices.runsHere(conversation.ownerDevice)) return conversation;
  throw new CallerError('elsewhere', `This conversation runs on ${conversation.ownerDevice?.name ?? 'another device'}: continue it there.`);
}

/** Whether a run left active may be taken over here: it is, and this device is the one that runs it. */
export function mayTakeOver(devices: DevicesPort, conversation: Conversation | undefined): conversation is Conversation {
  return conversation !== undefined && isActive(conversation.state) && devices.runsHere(conversation.ownerDevice);
}
