import { Engine } from '../engine/engine.ts';
import { toWireError, UnrecordedFailure } from '../engine/errors.ts';
import { ACTIVE_STATES, type DecidedBy } from '../engine/records/index.ts';
import { withDemoSink } from '../model/demo-sink.ts';
import { createHttpRequestTool } from '../tools/http-request.ts';
import { createNotesTools } from '../tools/notes-tools.ts';
import { DexieRules, makeRuleActive, setAlwaysAllowIrreversible, setAskForEverything, setRuleEnabled } from '../storage/approval-rules-repo.ts';
import { readRecentCalls } from '../storage/recent-calls.ts';
import { PREVIEW_CALLS } from '../engine/preview-rule.ts';
import type { PausepointDb } from '../storage/db.ts';
import { DexieStorage } from '../storage/dexie-storage.ts';
import { DexieAttachments } from '../storage/attachments-repo.ts';
import { DexieNotesStore } from '../storage/notes-store.ts';
import { deviceId, readSettings, SettingsRead, settingsAlongside } from '../storage/settings-repo.ts';
import { signObject } from '../identity/device-signature.ts';
import { deviceIdentity } from '../identity/identity-store.ts';
import { browserNetwork, randomIds, systemClock } from './browser-runtime.ts';
import { deviceLabel } from './device-label.ts';
import { engineSettings } from './engine-settings.ts';
import { McpHost } from './mcp-host.ts';
import { answerForView } from '../mcp/view-tool-call.ts';
import { PushHost } from './push-host.ts';
import { SearchHost } from './search-host.ts';
import { SyncHost } from './sync-host.ts';
import { modelFor, modelFromSettings, preloadModel } from './model-from-settings.ts';
import type { IntentHandlers, IntentKind, IntentOf, IntentResults, WorkerEvent } from './protocol.ts';
import { warmUp } from './warm-up.ts';
import { WebLocks } from './web-locks.ts';

const EXPIRY_SWEEP_MS = 15_000;

/**
 * The engine as one tab's worker hosts it: Dexie storage, the openai adapter,
 * Web Locks, and the tools. It also watches every conversation another tab is
 * running, so that when that tab closes this one carries the turn on.
 */
export class AgentHost {
  readonly engine: Engine;
  readonly #mcp: McpHost;
  readonly #sync: SyncHost;
  readonly #search: SearchHost;
  readonly #watching = new Set<string>();
  readonly #decidedBy: Promise<DecidedBy>;
  readonly #stops = new BroadcastChannel('pausepoint:stop');
  readonly #handlers: IntentHandlers;

  constructor(
    private readonly db: PausepointDb,
    readonly tabId: string,
    private readonly emit: (event: WorkerEvent) => void,
  ) {
    // The demo's requests land in its sink inside this thread (demo-sink.ts); every other one goes out.
    const tools = [...createNotesTools(new DexieNotesStore(db)), createHttpRequestTool({ fetch: withDemoSink((input, init) => fetch(input, init)) })];
    this.#mcp = new McpHost(db, new Set(['wait_for_approval', ...tools.map((tool) => tool.name)]));
    const device = deviceId(db);
    // Every device makes its signing key at its first start, with sync or without: each decision made here is signed with it.
    const identity = deviceIdentity(db);
    // A start that could not make it is retried by the next decision, not remembered as failed.
    identity.catch((error: unknown) => console.error('Pausepoint: the device signing key could not be made', error));
    // Cards of another device's conversations, arrived by sync, notify as this device's own do.
    this.#sync = new SyncHost(db, device, (cards) => {
      for (const p of cards) this.emit({ type: 'approval_requested', pausePointId: p.id, conversationId: p.conversationId, title: p.title });
    });
    this.#search = new SearchHost(db);
    this.#handlers = this.#makeHandlers();
    this.engine = new Engine({
      // Each step's read takes the settings along, so the model call it makes needs no read of its own.
      storage: new DexieStorage(db, settingsAlongside),
      attachments: new DexieAttachments(db),
      rules: new DexieRules(db),
      model: async (alongside) => modelFromSettings(alongside instanceof SettingsRead ? alongside.settings : await readSettings(db)),
      settings: engineSettings(db),
      tools,
      dynamicTools: this.#mcp.tools,
      clock: systemClock,
      ids: randomIds,
      network: browserNetwork,
      locks: new WebLocks(),
      tabs: { requestStop: (conversationId) => this.#stops.postMessage(conversationId) },
      owner: tabId,
      devices: this.#sync.devices,
      signer: { sign: async (signed) => signObject(await identity.catch(() => deviceIdentity(db)), signed) },
      onPause: (p) => this.emit({ type: 'approval_requested', pausePointId: p.id, conversationId: p.conversationId, title: p.title }),
      onError: (error, conversationId) => {
        console.error('Pausepoint: a background run failed', error);
        if (error instanceof UnrecordedFailure) this.emit({ type: 'run_failed', conversationId, message: error.message });
      },
    });
    this.#sync.attach(this.engine);
    // Pushes go to the person's ntfy server for the cards of conversations this device runs (push-host.ts).
    new PushHost(db, (owner) => this.#sync.devices.runsHere(owner));
    this.#decidedBy = device.then((id) => ({ tabId, deviceId: id, label: deviceLabel(navigator.userAgent) }));
    this.#stops.onmessage = (event: MessageEvent<unknown>) => {
      if (typeof event.data === 'string') this.engine.stop(event.data);
    };
  }

  /**
   * Expires the cards that fell due while no tab was open and recovers
   * orphaned runs, both now, then keeps watching for new ones and for due
   * expiries. (A due card is refused when decided anyway; expiring it at once
   * is what makes every tab show it expired, and tells the model.)
   */
  start(): void {
    void this.#expireDue();
    // Recovered runs may call MCP tools: their servers' tools are known first.
    void this.#mcp.ready.then(() => this.#sweep());
    // Polling is enough here: a closed tab is noticed within seconds, and an
    // indexed read of the active conversations only is cheap next to a live query per tab.
    setInterval(() => void this.#sweep(), 3_000);
    setInterval(() => void this.#expireDue(), EXPIRY_SWEEP_MS);
    // The model code is loaded on demand (model-from-settings.ts), and right after start in any case, with
    // the first press's other cold paths (warm-up.ts): once the database is open (the device id is read),
    // the worker takes intents, and the first press should not wait for them. (Running beside the page's
    // first render does not slow it: bench/latency/README.md.)
    void this.#decidedBy
      .then(() => warmUp(this.db))
      .catch((error: unknown) => console.warn('Pausepoint: warming up failed', error));
  }

  /** Who decides from this tab: under this device's sync name while it syncs, so other devices can say who was first. */
  async #by(): Promise<DecidedBy> {
    const by = await this.#decidedBy;
    const name = this.#sync.deviceName();
    return name ? { ...by, label: name } : by;
  }

  /** Runs one intent with its handler; the result is the one `IntentResults` declares for its kind. */
  async handle<K extends IntentKind>(intent: IntentOf<K>): Promise<IntentResults[K]> {
    // The model code loads while the intent's transactions run, not after them.
    const runs = intent.type === 'send' || intent.type === 'editMessage' || intent.type === 'regenerate' || intent.type === 'decide' || intent.type === 'decideBatch' || intent.type === 'approveWithRule' || intent.type === 'retry';
    if (runs) preloadModel();
    // A run (or a decision's check of edited arguments) may need the stored MCP servers' tools.
    if (runs) await this.#mcp.ready;
    // `intent.type` is K, which TypeScript cannot see through Extract.
    return this.#handlers[intent.type as K](intent);
  }

  /** Built once the MCP host exists (the constructor calls it). */
  #makeHandlers(): IntentHandlers {
    return {
      ...this.#mcp.handlers,
      ...this.#sync.handlers,
      ...this.#search.handlers,
      send: ({ conversationId, text, attachments }) => this.engine.send(conversationId, text, attachments),
      editMessage: ({ conversationId, messageId, text, keep }) => this.engine.editMessage(conversationId, messageId, text, keep),
      regenerate: ({ conversationId }) => this.engine.regenerate(conversationId),
      switchVersion: ({ conversationId, branchId }) => this.engine.switchVersion(conversationId, branchId),
      decide: async ({ pausePointId, decision }) => this.engine.decide(pausePointId, decision, await this.#by()),
      decideBatch: async ({ pausePointIds, decision, viewHashes }) => this.engine.decideBatch(pausePointIds, decision, await this.#by(), viewHashes),
      stop: async ({ conversationId }) => this.engine.stopEverywhere(conversationId),
      retry: ({ conversationId }) => this.engine.retry(conversationId),
      createConversation: async ({ title }) => ({ conversationId: await this.engine.createConversation(title) }),
      renameConversation: ({ conversationId, title }) => this.engine.renameConversation(conversationId, title),
      deleteConversation: ({ conversationId }) => this.engine.deleteConversation(conversationId),
      setConversationInstructions: ({ conversationId, instructions }) => this.engine.setConversationInstructions(conversationId, instructions),
      addRule: async ({ draft }) => ({ ruleId: (await this.engine.addRule(draft, await this.#by())).id }),
      approveWithRule: async ({ pausePointId, decision, draft }) =>
        this.engine.approveWithRule(pausePointId, decision, draft, await this.#by()),
      removeRule: async ({ ruleId }) => this.engine.removeRule(ruleId, await this.#by()),
      previewRule: async ({ draft }) => this.engine.previewRule(draft, await readRecentCalls(this.db, PREVIEW_CALLS)),
      makeRuleActive: async ({ ruleId }) => void (await makeRuleActive(this.db, ruleId, { by: await this.#by() })),
      enableRule: async ({ ruleId }) => void (await setRuleEnabled(this.db, ruleId, true, { by: await this.#by() })),
      disableRule: async ({ ruleId }) => void (await setRuleEnabled(this.db, ruleId, false, { by: await this.#by() })),
      setAlwaysAllowIrreversible: ({ on }) => setAlwaysAllowIrreversible(this.db, on),
      setAskForEverything: ({ on }) => setAskForEverything(this.db, on),
      listModels: async (endpoint) => (await modelFor(endpoint)).listModels(),
      // MCP Apps: through the engine like a model's call (call-from-view.ts); answered once decided and run.
      callToolFromView: async ({ type: _type, ...request }) => {
        await this.#mcp.ready;
        return answerForView(await this.engine.callFromView(request));
      },
    };
  }

  async #sweep(): Promise<void> {
    const conversations = await this.db.conversations.where('state.kind').anyOf([...ACTIVE_STATES]).toArray();
    for (const conversation of conversations) {
      // Another device's conversation is run there: this device only shows it.
      if (this.#watching.has(conversation.id) || !this.#sync.devices.runsHere(conversation.ownerDevice)) continue;
      this.#watching.add(conversation.id);
      this.engine
        .watch(conversation.id)
        .catch((error: unknown) => console.error('Pausepoint: recovering a conversation failed', toWireError(error)))
        .finally(() => this.#watching.delete(conversation.id));
    }
  }

  async #expireDue(): Promise<void> {
    const now = Date.now();
    const due = await this.db.pausePoints.where('status').equals('pending').filter((p) => p.expiresAt !== null && p.expiresAt <= now).toArray();
    for (const conversationId of new Set(due.map((p) => p.conversationId))) {
      // The run expires them and tells the model; if another tab owns the conversation it waits its turn.
      this.engine.run(conversationId).catch((error: unknown) => console.error('Pausepoint: expiring approvals failed', toWireError(error)));
    }
  }
}
