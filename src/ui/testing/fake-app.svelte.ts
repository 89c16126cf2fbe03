import type { RulePreview } from '../../engine/preview-rule.ts';
import { vi } from 'vitest';
import type { BatchDecision, BatchResult } from '../../engine/batch-decision.ts';
import type { Decision } from '../../engine/decision.ts';
import type { ApprovalRuleDraft, PausePoint } from '../../engine/records/index.ts';
import type { PausepointDb } from '../../storage/db.ts';
import type { DecideResult, WorkerEvent } from '../../worker/protocol.ts';
import type { SearchResults } from '../../search/search-result.ts';
import type { AgentClient, SyncControl } from '../../worker/agent-client.ts';
import { suggestPassphrase } from '../../sync/passphrase/four-word-phrase.ts';
import { passphraseStrength } from '../../sync/passphrase/passphrase-strength.ts';
import type { JoinWithPairing, PairingInvite, SyncResult, TurnOnSync } from '../../sync/sync-control.ts';
import { APP_CONTEXT, type AppContext } from '../app-context.ts';
import { Announcer } from '../state/announcer.svelte.ts';
import { Router } from '../state/router.svelte.ts';

/**
 * An AgentClient whose every method is a spy; `decide` (and each card of
 * `decideBatch`) answers `decided` unless told otherwise. `emit` plays an event from the worker to `onEvent` listeners.
 */
export function fakeClient(tabId = 'tab-1') {
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- the fake's own bookkeeping, never rendered
  const listeners = new Set<(event: WorkerEvent) => void>();
  const client = {
    tabId,
    send: vi.fn(async (conversationId: string | null, _text: string) => ({ conversationId: conversationId ?? 'new-id' })),
    decide: vi.fn(async (_id: string, _decision: Decision): Promise<DecideResult> => ({ outcome: 'decided' })),
    decideBatch: vi.fn(
      async (ids: readonly string[], _decision: BatchDecision): Promise<BatchResult> => ({
        batchId: 'batch-1',
        cards: ids.map((pausePointId) => ({ pausePointId, result: { outcome: 'decided' } })),
      }),
    ),
    stop: vi.fn(async (_id: string) => {}),
    retry: vi.fn(async (_id: string) => {}),
    editMessage: vi.fn(async (_id: string, _messageId: string, _text: string) => {}),
    regenerate: vi.fn(async (_id: string) => {}),
    switchVersion: vi.fn(async (_id: string, _branchId: string) => {}),
    createConversation: vi.fn(async (_title?: string) => ({ conversationId: 'created' })),
    renameConversation: vi.fn(async (_id: string, _title: string) => {}),
    deleteConversation: vi.fn(async (_id: string) => {}),
    setConversationInstructions: vi.fn(async (_id: string, _instructions: string) => {}),
    addRule: vi.fn(async (_draft: ApprovalRuleDraft) => ({ ruleId: 'rule-new' })),
    approveWithRule: vi.fn(async (_id: string, _decision: Decision, _draft: ApprovalRuleDraft): Promise<DecideResult> => ({ outcome: 'decided' })),
    removeRule: vi.fn(async (_id: string) => {}),
    previewRule: vi.fn(async (_draft: ApprovalRuleDraft): Promise<RulePreview> => ({ decided: 0, of: 0, examples: [] })),
    makeRuleActive: vi.fn(async (_id: string) => {}),
    enableRule: vi.fn(async (_id: string) => {}),
    disableRule: vi.fn(async (_id: string) => {}),
    setAskForEverything: vi.fn(async (_on: boolean) => {}),
    setAlwaysAllowIrreversible: vi.fn(async (_on: boolean) => {}),
    searchConversations: vi.fn(async (_query: string, _limit: number): Promise<SearchResults> => ({ results: [], total: 0 })),
    sync: fakeSync(),
    onEvent: vi.fn((listener: (event: WorkerEvent) => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    }),
    emit: (event: WorkerEvent) => listeners.forEach((listener) => listener(event)),
  } satisfies AgentClient & { emit: (event: WorkerEvent) => void };
  return client;
}

/** Spies for Settings › Devices and the Join dialog: sync turns on and joins, and a device gets a fixed invite. */
export function fakeSync() {
  return {
    turnOn: vi.fn(async (_input: TurnOnSync): Promise<SyncResult> => ({ ok: true })),
    turnOff: vi.fn(async () => {}),
    addDevice: vi.fn(
      async (): Promise<PairingInvite> => ({ link: 'http://localhost/#pair=BLOB', code: 'K7QM-3XPA-9RTW', expiresAt: 1_700_000_900_000 }),
    ),
    join: vi.fn(async (_input: JoinWithPairing): Promise<SyncResult> => ({ ok: true })),
    removeDevice: vi.fn(async (_deviceId: string) => {}),
    renameDevice: vi.fn(async (_name: string) => {}),
    retry: vi.fn(async () => {}),
    // Measured as the worker measures it.
    passphraseStrength: vi.fn((passphrase: string, userInputs: string[]) => passphraseStrength(passphrase, userInputs)),
    suggestPassphrase: vi.fn(() => suggestPassphrase()),
  } satisfies SyncControl;
}

/** A context for rendering one component: `render(C, { props, context: fakeContext().context })`. */
export function fakeContext(overrides: Partial<AppContext> = {}) {
  const client = fakeClient();
  let router!: Router;
  const dispose = $effect.root(() => {
    router = new Router(window);
  });
  const app: AppContext = {
    db: {} as PausepointDb,
    client,
    testConnection: vi.fn(async () => ['model-a', 'model-b']),
    router,
    announcer: new Announcer(),
    ...overrides,
  };
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a context map for render(), not state
  return { app, client, dispose, context: new Map<unknown, unknown>([[APP_CONTEXT, app]]) };
}

export function pausePoint(over: Partial<PausePoint> = {}): PausePoint {
  return {
    v: 1,
    id: 'p1',
    conversationId: 'c1',
    turnIndex: 0,
    title: 'Send the newsletter',
    description: 'To **1,204** subscribers. Cannot be undone.',
    options: null,
    payload: null,
    kind: 'approval',
    status: 'pending',
    resolution: null,
    resolvedAt: null,
    createdAt: 1_700_000_000_000,
    origin: 'model',
    toolCallId: 'call-1',
    toolName: 'wait_for_approval',
    expiresAt: null,
    ...over,
  };
}
