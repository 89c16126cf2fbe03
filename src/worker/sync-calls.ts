import type { z } from 'zod';
import { SuggestedPassphrase } from '../sync/passphrase/four-word-phrase.ts';
import { PassphraseStrength } from '../sync/passphrase/passphrase-strength.ts';
import { PairingInvite, SyncResult } from '../sync/sync-control.ts';
import type { SendIntent, SyncControl } from './agent-client.ts';
import type { IntentInput } from './protocol.ts';
import { AgentError } from './agent-error.ts';


/**
 * The page's sync calls (client.sync), each answer read with its zod schema.
 * Loaded by WorkerClient on the first sync call, with zod and the schemas:
 * only a page that opens Settings › Devices or a pairing link pays for them.
 */
export function syncCalls(send: SendIntent): SyncControl {
  const nothing = async (intent: IntentInput, signal?: AbortSignal) => void (await send(intent, signal));
  return {
    turnOn: async (input, signal) => read(SyncResult, await send({ type: 'syncTurnOn', ...input }, signal)),
    turnOff: (signal) => nothing({ type: 'syncTurnOff' }, signal),
    addDevice: async (signal) => read(PairingInvite, await send({ type: 'syncAddDevice' }, signal)),
    join: async (input, signal) => read(SyncResult, await send({ type: 'syncJoin', ...input }, signal)),
    removeDevice: (deviceId, signal) => nothing({ type: 'syncRemoveDevice', deviceId }, signal),
    renameDevice: (name, signal) => nothing({ type: 'syncRenameDevice', name }, signal),
    retry: (signal) => nothing({ type: 'syncRetry' }, signal),
    passphraseStrength: async (passphrase, userInputs, signal) =>
      read(PassphraseStrength, await send({ type: 'syncPassphraseStrength', passphrase, userInputs }, signal)),
    suggestPassphrase: async (signal) => read(SuggestedPassphrase, await send({ type: 'syncSuggestPassphrase' }, signal)),
  };
}

function read<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AgentError('ProtocolError', 'The agent worker answered a sync request with something unreadable.');
  return parsed.data;
}
