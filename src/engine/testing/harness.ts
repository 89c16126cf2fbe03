import { z } from 'zod';
import { Engine } from '../engine.ts';
import type { EngineOptions } from '../engine-options.ts';
import type { StoragePort } from '../storage-port.ts';
import type { ToolDefinition } from '../tool-definition.ts';
import type { DecidedBy } from '../records/index.ts';
import { FakeClock, FakeNetwork, SequentialIds } from './fake-clock.ts';
import { MemoryLocks } from './memory-locks.ts';
import { MemoryRules } from './memory-rules.ts';
import { MemoryStorage } from './memory-storage.ts';
import { SimulatedCrash } from './crashable-storage.ts';
import { ScriptedModel, type ScriptedTurn } from './scripted-model.ts';

/** A side effect the tests can count: a payment that needs approval above 100. */
export function transferTool(executions: { amount: number; to: string }[]): ToolDefinition {
  const input = z.object({ amount: z.number().positive(), to: z.string().min(1) });
  return {
    name: 'transfer',
    description: 'Send money.',
    input,
    gate: (args) => (args.amount > 100 ? { title: `Send ${args.amount} to ${args.to}?`, description: 'Money leaves your account.' } : null),
    async execute(args) {
      executions.push(args);
      return `sent ${args.amount} to ${args.to}`;
    },
  } satisfies ToolDefinition<typeof input>;
}

export const tab = (tabId: string): DecidedBy => ({ tabId, deviceId: 'device-1', label: `Chromium (${tabId})` });

export interface Harness {
  storage: StoragePort;
  clock: FakeClock;
  network: FakeNetwork;
  locks: MemoryLocks;
  model: ScriptedModel;
  executions: { amount: number; to: string }[];
  engine: Engine;
  /** Another tab over the same storage and locks (optionally its own storage view and model). */
  openTab(owner: string, overrides?: Partial<EngineOptions>): Engine;
}

export function harness(turns: ScriptedTurn[] = [], overrides: Partial<EngineOptions> = {}): Harness {
  // A settlement's rule (a card's Always allow) lands where the engine reads rules.
  const storage = new MemoryStorage({ rules: overrides.rules instanceof MemoryRules ? overrides.rules : undefined });
  const clock = new FakeClock();
  const network = new FakeNetwork();
  const locks = new MemoryLocks();
  const model = new ScriptedModel(...turns);
  const executions: { amount: number; to: string }[] = [];
  const ids = new SequentialIds();
  const openTab = (owner: string, more: Partial<EngineOptions> = {}) =>
    new Engine({
      storage,
      model: () => model,
      tools: [transferTool(executions)],
      clock,
      ids,
      network,
      locks,
      owner,
      ...overrides,
      ...more,
    });
  return { storage, clock, network, locks, model, executions, engine: openTab('tab-A'), openTab };
}

/** Sends a message and waits until the loop has nothing more to do. */
export async function say(h: Harness, conversationId: string | null, text: string, engine = h.engine) {
  const { conversationId: id } = await engine.send(conversationId, text);
  await engine.whenIdle();
  return id;
}

export async function pending(h: Harness, conversationId: string) {
  return (await h.storage.listPausePoints(conversationId)).filter((p) => p.status === 'pending');
}

export async function state(h: Harness, conversationId: string) {
  return (await h.storage.getConversation(conversationId))?.state;
}

/**
 * A model turn whose tab dies mid-stream: "Partial text" is stored by the
 * throttled writer (time advances between pieces), " lost" never is.
 */
export function streamThenDie(h: Pick<Harness, 'clock'>, reason: string): ScriptedTurn {
  return (request) => {
    request.onText('Partial ');
    h.clock.advance(1_000);
    request.onText('text');
    h.clock.advance(1_000);
    request.onText(' lost');
    throw new SimulatedCrash(reason);
  };
}
